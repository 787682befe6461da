/**
 * Scaffolds a new operation (docs/adding-an-operation.md):
 *
 *   npm run new:operation -- <area> <operationId> --method POST --path /api/v1/coursings/{id}/archive \
 *     --permission coursings.update [--handler functions/coursings/archive.ts] [--root <dir>] [--no-generate]
 *
 * It writes the row (shared/routes/<area>.ts; a new area gets its file and its place in the table),
 * the schemas (shared/schemas/<resource>.ts), a domain function that refuses to run until written
 * (shared/domain/<resource>.ts), the five-line handler, and an API test that sends the route a
 * request built by the test world (test/support/world.ts) and expects 200; then it runs the
 * generators. What it cannot write (the domain's logic, a benchmark fixture, a crash-injection row
 * for a write, the docs) it lists, and the fast registry test (test/unit/registries.test.ts) names
 * whatever is still missing. `<resource>` is the path's first segment after /api/v1.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

export interface NewOperation {
  area: string;
  operationId: string;
  method: Method;
  path: string;
  permission: string;
  handler?: string;
}

const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What a request of the operation carries: the parts its schemas describe. */
function partsOf(op: NewOperation) {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return {
    params,
    body: op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH',
    query: op.method === 'GET',
  };
}

/** Checks the arguments; each refusal says what to send instead. */
function checked(op: NewOperation): NewOperation {
  if (!/^[a-z][a-z-]*$/.test(op.area))
    throw new Error(`area "${op.area}": lower-case words joined by "-" (menu, booking-members)`);
  if (!/^[a-z][A-Za-z0-9]*$/.test(op.operationId))
    throw new Error(`operationId "${op.operationId}": camelCase (archiveCoursing)`);
  if (!METHODS.includes(op.method)) throw new Error(`--method ${op.method}: one of ${METHODS.join(', ')}`);
  if (!/^\/api\/v1\/[a-z][a-z-]*(\/([a-z][a-z-]*|\{\w+\}))*$/.test(op.path)) {
    throw new Error(`--path ${op.path}: /api/v1/<resource>[/<segment>|/{param}]…`);
  }
  if (!/^[a-z_]+\.[a-z_]+$/.test(op.permission)) throw new Error(`--permission ${op.permission}: <resource>.<action>`);
  return op;
}

/** The lines to add after a file's last import (none that are there already). */
function withImports(source: string, imports: string[]): string {
  const missing = imports.filter((line) => !source.includes(line));
  if (!missing.length) return source;
  const lines = source.split('\n');
  let last = -1;
  lines.forEach((line, i) => {
    if (/^import .* from '.*';$/.test(line)) last = i;
  });
  lines.splice(last + 1, 0, ...missing);
  return lines.join('\n');
}

/** The files to write (path → new content), read against the tree at `root`. */
export function scaffold(root: string, given: NewOperation): Map<string, string> {
  const op = checked(given);
  const read = (file: string) => (existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : undefined);
  const resource = op.path.split('/')[3]!;
  const Name = pascal(op.operationId);
  const { params, body, query } = partsOf(op);
  const handler = op.handler ?? `functions/${resource}/${kebab(op.operationId)}.ts`;
  const schemaModule = camel(resource);
  const files = new Map<string, string>();

  const routesFile = `shared/routes/${camel(op.area)}.ts`;
  const domainFile = `shared/domain/${schemaModule}.ts`;
  const schemaFile = `shared/schemas/${schemaModule}.ts`;
  const testFile = `test/api/${resource}-${kebab(op.operationId)}.test.ts`;
  if (read(handler) !== undefined) throw new Error(`${handler} exists: name another --handler`);
  if (read(testFile) !== undefined) throw new Error(`${testFile} exists`);
  if (existsSync(join(root, 'shared/domain', schemaModule))) {
    throw new Error(`shared/domain/${schemaModule}/ is a folder: write the domain function there by hand`);
  }

  // The schemas: each part the method takes, and the answer. Narrow them before the row ships.
  const schemaNames = {
    path: params.length ? `${Name}Path` : undefined,
    query: query ? `${Name}Query` : undefined,
    body: body ? `${Name}Body` : undefined,
    response: `${Name}View`,
  };
  const paramText = params.map((p) => `${p}: Type.String({ minLength: 1, maxLength: 100 })`).join(', ');
  const schemaText = [
    '',
    `// ${op.operationId} (${op.method} ${op.path}): scaffolded; narrow each schema to what the operation takes.`,
    ...(schemaNames.path ? [`export const ${schemaNames.path} = Type.Object({ ${paramText} });`] : []),
    ...(schemaNames.query
      ? [`export const ${schemaNames.query} = Type.Object({}, { additionalProperties: false });`]
      : []),
    ...(schemaNames.body
      ? [`export const ${schemaNames.body} = Type.Object({}, { additionalProperties: false, examples: [{}] });`]
      : []),
    `export const ${schemaNames.response} = Type.Object({});`,
    ...Object.values(schemaNames)
      .filter((n): n is string => n !== undefined)
      .map((n) => `export type ${n} = Static<typeof ${n}>;`),
    '',
  ].join('\n');
  const schemaSource = read(schemaFile) ?? "import { Type, type Static } from './typebox';\n";
  if (!/import \{[^}]*\bType\b[^}]*\bStatic\b[^}]*\} from '\.\/typebox';/.test(schemaSource)) {
    throw new Error(`${schemaFile} does not import { Type, type Static } from './typebox': add it, then run again`);
  }
  files.set(schemaFile, schemaSource.trimEnd() + '\n' + schemaText);

  // The row.
  const schemaRefs = Object.entries(schemaNames)
    .filter(([, n]) => n !== undefined)
    .map(([part, n]) => `${part}: ${schemaModule}Schemas.${n}`)
    .join(', ');
  const rowText = [
    '  row({',
    `    operationId: '${op.operationId}',`,
    `    method: '${op.method}',`,
    `    path: '${op.path}',`,
    `    permission: '${op.permission}',`,
    `    handler: '${handler}',`,
    `    area: '${op.area}',`,
    `    schemas: { ${schemaRefs} },`,
    '  }),',
  ].join('\n');
  const schemaImport = `import * as ${schemaModule}Schemas from '../schemas/${schemaModule}';`;
  const routesSource = read(routesFile);
  const list = `${camel(op.area)}Routes`;
  if (routesSource === undefined) {
    // A new area: its file, and its rows in the table (shared/routes/index.ts).
    files.set(
      routesFile,
      `${schemaImport}\nimport { row } from './route';\n\nexport const ${list} = [\n${rowText}\n] as const;\n`,
    );
    const index = read('shared/routes/index.ts')!;
    const listed = withImports(index, [`import { ${list} } from './${camel(op.area)}';`]);
    const end = listed.indexOf('] as const satisfies readonly Route[];');
    if (end < 0) throw new Error('shared/routes/index.ts: the table`s closing line was not found');
    files.set('shared/routes/index.ts', `${listed.slice(0, end)}  ...${list},\n${listed.slice(end)}`);
  } else {
    const end = routesSource.lastIndexOf('] as const;');
    if (end < 0) throw new Error(`${routesFile}: the list's closing "] as const;" was not found`);
    const source = `${routesSource.slice(0, end)}${rowText}\n${routesSource.slice(end)}`;
    files.set(routesFile, withImports(source, [schemaImport]));
  }

  // The domain function: refuses until written, so the API test fails until then.
  // Underscored until used: the compiler and the linter refuse unused parameters otherwise.
  const args = [
    '_principal: Principal',
    ...(schemaNames.path ? [`_path: ${schemaNames.path}`] : []),
    ...(schemaNames.query ? [`_query: ${schemaNames.query}`] : []),
    ...(schemaNames.body ? [`_body: ${schemaNames.body}`] : []),
  ];
  const domainSource = withImports(read(domainFile) ?? '', [
    "import type { Principal } from '../auth/principal';",
    `import type { ${Object.values(schemaNames).filter(Boolean).join(', ')} } from '../schemas/${schemaModule}';`,
  ]);
  files.set(
    domainFile,
    `${domainSource.trimEnd()}\n\n/** ${op.method} ${op.path}: scaffolded by \`npm run new:operation\`; write it (docs/adding-an-operation.md). */\n` +
      `export async function ${op.operationId}(${args.join(', ')}): Promise<${schemaNames.response}> {\n` +
      `  throw new Error('${op.operationId} is not written yet');\n}\n`,
  );

  // The handler: its operation's generated module and one domain call.
  const callArgs = [
    'req.principal',
    ...(schemaNames.path ? ['req.path'] : []),
    ...(query ? ['req.query'] : []),
    ...(body ? ['req.body'] : []),
  ];
  files.set(
    handler,
    `import { ${op.operationId} } from '../../shared/domain/${schemaModule}';\n` +
      "import { httpHandler } from '../../shared/http/handler';\n" +
      `import { operation } from '../../shared/http/operations/${op.operationId}';\n\n` +
      `export const handler = httpHandler(operation, (req) => ${op.operationId}(${callArgs.join(', ')}));\n`,
  );

  // The API test: a request the world builds for the row (real ids in the path, the body's example).
  files.set(
    testFile,
    `/** ${op.method} ${op.path} over HTTP against the local stage. Scaffolded: add the cases the operation's rules need. */\n` +
      "import { beforeAll, describe, expect, it } from 'vitest';\n" +
      "import { route } from '../../shared/routes';\n" +
      "import { call } from '../support/http';\n" +
      "import { buildWorld, requestFor, type World } from '../support/world';\n\n" +
      `const row = route('${op.operationId}');\n` +
      'let world: World;\n' +
      `beforeAll(async () => {\n  world = await buildWorld('${op.operationId} test company', 'https://receiver.invalid/hook', [row]);\n});\n\n` +
      `describe('${op.method} ${op.path}', () => {\n` +
      "  it('answers 200 to a valid request of an admin key', async () => {\n" +
      '    const request = requestFor(row, world);\n' +
      '    const answer = await call(row.method, request.url, { key: world.company.keys.admin, body: request.body });\n' +
      '    expect(answer.status).toBe(200);\n' +
      '  });\n});\n',
  );
  return files;
}

/** What is left for the developer, in the order to do it. */
function handWrittenSteps(op: NewOperation, files: ReadonlyMap<string, string>): string[] {
  const writes = op.method !== 'GET';
  return [
    `Write ${op.operationId} in shared/domain/ (its data access in shared/data/), and narrow its schemas.`,
    `If "${op.permission}" is a new permission: list it in shared/auth/catalog.ts.`,
    'Add a benchmark fixture in bench/fixtures/ (keyed by the operationId).',
    ...(writes ? ['Add a crash-injection row in test/integration/crash.test.ts (it writes).'] : []),
    'If it emits a new event type: shared/events/catalog.ts and docs/webhooks.md.',
    "Describe it in the area's docs page and docs/api.md; run `npx vitest run --project unit test/unit/registries.test.ts`.",
    `Files written: ${[...files.keys()].join(', ')}.`,
  ];
}

function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      method: { type: 'string' },
      path: { type: 'string' },
      permission: { type: 'string' },
      handler: { type: 'string' },
      root: { type: 'string', default: '.' },
      'no-generate': { type: 'boolean', default: false },
    },
  });
  const [area, operationId] = positionals;
  if (!area || !operationId || !values.method || !values.path || !values.permission) {
    console.error(
      'usage: npm run new:operation -- <area> <operationId> --method M --path P --permission p.a [--handler F]',
    );
    process.exit(2);
  }
  const op: NewOperation = {
    area,
    operationId,
    method: values.method.toUpperCase() as Method,
    path: values.path,
    permission: values.permission,
    ...(values.handler ? { handler: values.handler } : {}),
  };
  const root = values.root;
  const files = scaffold(root, op);
  for (const [file, content] of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
  }
  const run = (args: string[]) => execFileSync('npx', args, { cwd: root, stdio: 'inherit' });
  run(['biome', 'format', '--write', ...files.keys()]);
  if (!values['no-generate']) {
    run(['tsx', 'bin/tools/gen-operations.ts']);
    run(['tsx', 'bin/tools/gen-openapi.ts']);
  }
  console.log(
    `${op.operationId}: scaffolded. Left to do:\n${handWrittenSteps(op, files)
      .map((l) => `- ${l}`)
      .join('\n')}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main();
