/**
 * The typed client's promise, proven rather than asserted (docs/openapi.md, "A typed client"): the
 * types openapi-typescript makes from the OpenAPI document let a correct use of openapi-fetch
 * compile; a wrong path, a missing path parameter, a misspelt body field and a field `data` does
 * not have do not; and when the document changes (a response field renamed, a required body field
 * added), the same correct code stops compiling, naming the fields. The TypeScript compiler runs
 * in this process on a small program held in memory (the generated types and a snippet), with the
 * project's compiler options; only openapi-fetch and the libraries come from disk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiTypesModule, apiTypesSource } from '../../bin/tools/gen-api-types';
import { openApiDocument, openApiJson, type Json } from '../../shared/openapi/document';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Where the files in memory pretend to live: inside the project, so `openapi-fetch` resolves from its node_modules. */
const dir = join(root, 'test/unit/typed-client/');
const typesFile = join(dir, 'api-types.ts');

const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), (f) => ts.sys.readFile(f));
const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, root);
/** The files read from disk (libraries, @types/node, openapi-fetch), parsed once for every program below. */
const parsed = new Map<string, ts.SourceFile>();

interface CompileError {
  line: number;
  message: string;
}

/**
 * Type-checks the snippets beside `types` (all in memory, one program) as `tsc -p .` would: each
 * snippet's errors, with their lines. (The types themselves are checked by `tsc -p .`, which
 * compiles the generated module; checking all of them here again would take most of this file's time.)
 */
function typeErrors<Name extends string>(types: string, snippets: Record<Name, string>): Record<Name, CompileError[]> {
  const names = Object.keys(snippets) as Name[];
  const memory = new Map([
    [typesFile, types],
    ...names.map((name): [string, string] => [join(dir, `${name}.ts`), snippets[name]]),
  ]);
  const host = ts.createCompilerHost(options);
  const { fileExists, directoryExists, readFile, getSourceFile } = host;
  host.fileExists = (f) => memory.has(f) || fileExists.call(host, f);
  host.directoryExists = (d) => dir.startsWith(`${d.replace(/\/$/, '')}/`) || directoryExists!.call(host, d);
  host.readFile = (f) => memory.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, language, onError) => {
    const text = memory.get(f);
    if (text !== undefined) return ts.createSourceFile(f, text, language);
    let file = parsed.get(f);
    if (!file) {
      file = getSourceFile.call(host, f, language, onError);
      if (file) parsed.set(f, file);
    }
    return file;
  };
  const program = ts.createProgram([...memory.keys()], options, host);
  const errorsOf = (name: Name): CompileError[] => {
    const file = program.getSourceFile(join(dir, `${name}.ts`))!;
    return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) => ({
      line: d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    }));
  };
  return Object.fromEntries(names.map((name) => [name, errorsOf(name)])) as Record<Name, CompileError[]>;
}

/** A program that uses the client as a restaurant's developer would, and as it must compile. */
const correctUse = `
import createClient from 'openapi-fetch';
import type { paths } from './api-types';

const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });

export async function onboard(name: string): Promise<string> {
  const made = await api.POST('/api/v1/companies', { body: { name } });
  if (!made.data) throw new Error(\`refused: \${made.response.status}\`);
  const company = made.data.data;
  const issued = await api.POST('/api/v1/companies/{companyId}/api-keys', { params: { path: { companyId: company.id } }, body: { name: 'First admin key' } });
  return \`\${company.name} (\${company.createdAt}): \${issued.data?.data.key}\`;
}
`;

/** Four mistakes, one a line (the lines marked), each of which must be an error. */
const misuse = `
import createClient from 'openapi-fetch';
import type { paths } from './api-types';

const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });

export async function mistakes(): Promise<unknown[]> {
  return [
    await api.GET('/api/v1/companys'), // MISTAKE a path the document does not have
    await api.GET('/api/v1/companies/{companyId}', {}), // MISTAKE the required path parameter left out
    await api.POST('/api/v1/companies', { body: { nmae: 'Trattoria' } }), // MISTAKE a misspelt body field
    (await api.GET('/api/v1/companies/{companyId}', { params: { path: { companyId: 1 } } })).data?.data.plan, // MISTAKE a field data does not have
  ];
}
`;
const markedLines = (source: string) =>
  source.split('\n').flatMap((line, i) => (line.includes('// MISTAKE') ? [i + 1] : []));

/** Follows a local `$ref` of the document. */
function resolve(document: Json, node: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  return ref
    .slice(2)
    .split('/')
    .reduce<Json>((at, part) => at[part.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, document);
}

/**
 * A copy of the document as a careless change would leave it: the company's `name` renamed
 * `legalName` in the answers, and a required `taxId` added to the create body.
 */
function changedDocument(): Json {
  const document = structuredClone(openApiDocument());
  const create = ((document.paths as Json)['/api/v1/companies'] as Json).post as Json;
  const json = (content: unknown) => ((content as Json)['application/json'] as Json).schema as Json;
  const envelope = resolve(document, json(((create.responses as Json)['200'] as Json).content));
  const company = resolve(document, (envelope.properties as Json).data as Json);
  const fields = company.properties as Json;
  fields.legalName = fields.name;
  delete fields.name;
  company.required = (company.required as string[]).map((f) => (f === 'name' ? 'legalName' : f));
  const body = resolve(document, json((create.requestBody as Json).content));
  (body.properties as Json).taxId = { type: 'string', minLength: 1 };
  (body.required as string[]).push('taxId');
  return document;
}

describe('the typed client (openapi-typescript + openapi-fetch)', () => {
  let types: string;
  beforeAll(async () => {
    types = await apiTypesSource(openApiJson());
  }, 60_000);

  it('is what npm run gen:operations wrote (run it after changing a row or a schema)', () => {
    expect(readFileSync(apiTypesModule, 'utf8')).toBe(types);
  });

  it('compiles a correct use with the types of the document, and refuses each mistake on its own line', {
    timeout: 60_000,
  }, () => {
    const errors = typeErrors(types, { correctUse, misuse });
    expect(errors.correctUse).toEqual([]);
    expect([...new Set(errors.misuse.map((e) => e.line))]).toEqual(markedLines(misuse));
  });

  it('stops compiling the same correct use once a response field is renamed and a required body field added, naming both', {
    timeout: 60_000,
  }, async () => {
    const changed = await apiTypesSource(JSON.stringify(changedDocument()));
    const errors = typeErrors(changed, { correctUse }).correctUse;
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors.map((e) => e.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Property 'name' does not exist on type/),
        expect.stringMatching(/Property 'taxId' is missing in type/),
      ]),
    );
  });
});
