/**
 * The repository explains itself, truthfully (docs/conventions.md, “In numbers”):
 *
 * - every count the README or a page of docs/ states that the code can change under it (operations,
 *   areas, handler files, events, permissions, system roles, the seed's keys and tables, the one
 *   table) is checked against the code, and so is the README's folder layout;
 * - no tracked text file refers to a document a reader of the repository cannot open: a section of
 *   an outside specification or design document, an item of an outside tracker, or a folder beside
 *   the repository. A reference names a page of docs/ (or the README) or states the rule in words.
 *
 * Reads files and asks git which are tracked; no network, no database.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtInPermissions, platformPermissions, systemRoles, tenantPermissions } from '../../shared/auth/catalog';
import { eventCatalog } from '../../shared/events/catalog';
import { type Route, routes } from '../../shared/routes';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const table = routes as readonly Route[];

/** Every .ts file under `dir` (relative to the root), recursively. */
function tsFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}
const subdirs = (dir: string) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

const docFiles = ['README.md', ...readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);
const docs = docFiles.map((file) => ({ file, text: read(file) }));

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
const NUMBER = `(\\d[\\d,]*|${WORDS.join('|')})`;
const toNumber = (s: string) =>
  WORDS.includes(s.toLowerCase()) ? WORDS.indexOf(s.toLowerCase()) : Number(s.replace(/,/g, ''));

/** Where `pattern` (with `NUMBER` as its first group) occurs in the docs, with the number it states. */
function statements(pattern: RegExp) {
  const found: { where: string; text: string; stated: number; groups: string[] }[] = [];
  for (const { file, text } of docs)
    for (const m of text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))) {
      const line = text.slice(0, m.index).split('\n').length;
      found.push({ where: `${file}:${line}`, text: m[0], stated: toNumber(m[1] as string), groups: m.slice(2) });
    }
  return found;
}

const areaCounts = new Map<string, number>();
for (const r of table) areaCounts.set(r.area, (areaCounts.get(r.area) ?? 0) + 1);
const handlerFiles = tsFiles('functions');
const seed = read('bin/local/seed.ts');

/**
 * Counts that drift as the code grows. Each claim is a phrase the docs use; every occurrence must
 * state the code's number, and a claim no doc makes any longer fails too (say it again, or drop
 * the claim here). Phrases about other things (a synthetic table, a part of an area) are worded
 * so that these patterns do not take them.
 */
const claims: { what: string; pattern: RegExp; actual: (groups: string[]) => number; optional?: true }[] = [
  {
    what: 'operations (rows of the route table)',
    // In digits: "the four operations" of one area is not a claim about the table.
    pattern: /(?<!synthetic )\b(\d[\d,]*) (?:operations|routes)\b/,
    actual: () => table.length,
  },
  {
    what: 'operations in the README layout',
    pattern: new RegExp(`functions/<resource>/<operation>\\.ts, ${NUMBER} of them`),
    actual: () => table.length,
  },
  {
    what: "an area page's operations",
    pattern: new RegExp(`the ${NUMBER} operations below \\(area \`([a-z-]+)\`\\)`),
    actual: ([area]) => areaCounts.get(area as string) ?? -1,
  },
  {
    what: 'public operations',
    pattern: new RegExp(`\\b${NUMBER}\\s+of them public\\b`),
    actual: () => table.filter((r) => r.permission === null).length,
  },
  {
    what: 'route areas',
    pattern: new RegExp(`(?<!synthetic routes, )\\b${NUMBER}\\s+(?:route )?areas\\b`, 'i'),
    actual: () => areaCounts.size,
  },
  {
    what: 'handler files under functions/',
    pattern: new RegExp(`\\b${NUMBER}\\s+handler files\\b`),
    actual: () => handlerFiles.length,
  },
  {
    what: 'event names in the catalog',
    pattern: new RegExp(`event catalog names \\**${NUMBER}\\s+events\\b`),
    actual: () => Object.keys(eventCatalog).length,
  },
  {
    what: 'built-in permissions',
    pattern: new RegExp(`permission catalog has \\**${NUMBER}\\s+permissions\\**`),
    actual: () => builtInPermissions.length,
  },
  {
    what: "permissions a company's roles can hold",
    pattern: new RegExp(`${NUMBER} a company's roles can hold`),
    actual: () => tenantPermissions.length,
  },
  {
    what: "the platform's own permissions",
    pattern: new RegExp(`${NUMBER} for the platform's operators`),
    actual: () => platformPermissions.length,
  },
  {
    what: 'system roles',
    pattern: new RegExp(`\\b${NUMBER}\\s+system roles\\b`, 'i'),
    actual: () => Object.keys(systemRoles).length,
  },
  {
    what: "the seed's keys per company",
    pattern: new RegExp(`dev-keys\\.json\` has ${NUMBER} keys`),
    actual: () => (seed.match(/keys: \{([^}]*)\}/)?.[1]?.match(/\w+: string/g) ?? []).length,
  },
  {
    what: "the seed's tables per location",
    pattern: new RegExp(`each has\\s+${NUMBER} tables`),
    actual: () => (seed.match(/const floorPlan[^=]*= \[([\s\S]*?)\];/)?.[1]?.match(/\['/g) ?? []).length,
  },
  {
    what: 'DynamoDB tables the stack declares',
    pattern: new RegExp(`\\b${NUMBER} DynamoDB table\\b`, 'i'),
    actual: () =>
      tsFiles('infra')
        .map(read)
        .join('\n')
        .match(/extends dynamodb\.Table(?:V2)?\b|new dynamodb\.Table(?:V2)?\(/g)?.length ?? 0,
  },
];

/**
 * Statements whose page another change is rewriting, skipped while their text is exactly this
 * (file and phrase); remove an entry once its page is fixed.
 */
const pending = new Set<string>([]);

describe('counts the docs state', () => {
  it.each(claims.map((c) => [c.what, c] as const))('%s', (_, claim) => {
    const found = statements(claim.pattern);
    expect(found.length, `no doc states ${claim.what} any longer: drop the claim from this test`).toBeGreaterThan(0);
    const wrong = found
      .filter((f) => !pending.has(`${f.where.replace(/:\d+$/, '')}: ${f.text}`))
      .filter((f) => f.stated !== claim.actual(f.groups))
      .map((f) => `${f.where} says "${f.text}", the code has ${claim.actual(f.groups)}`);
    expect(wrong).toEqual([]);
  });

  it('every route names a handler file that exists, and functions/ holds only those and the six others', () => {
    const others = [
      'functions/authorizer.ts',
      'functions/fallback.ts',
      'functions/catalog/seed.ts',
      'functions/pipeline/delivery.ts',
      'functions/pipeline/dispatcher.ts',
      'functions/sweeper/no-shows.ts',
    ];
    expect(new Set(table.map((r) => r.handler)).size).toBe(table.length);
    expect(handlerFiles.sort()).toEqual([...table.map((r) => r.handler), ...others].sort());
  });
});

describe("the README's layout", () => {
  const block = read('README.md').match(/## Layout\n+```\n([\s\S]*?)```/)?.[1] ?? '';
  /** The text of the entry for `folder/` (its first line and the indented lines after it). */
  const entry = (folder: string) =>
    block.match(new RegExp(`^${folder}/ +([^\\n]*(?:\\n {2,}[^\\n]*)*)`, 'm'))?.[1] ?? '';

  it('names folders that exist', () => {
    const named = [...block.matchAll(/^([a-z]+)\/ /gm)].map((m) => m[1] as string);
    expect(named.length).toBeGreaterThan(0);
    for (const folder of named) expect(subdirs('.'), folder).toContain(folder);
  });

  it('lists every folder of test/, and only those', () => {
    const listed = [...entry('test').matchAll(/([a-z-]+)\//g)].map((m) => m[1] as string).sort();
    expect(listed).toEqual(subdirs('test'));
  });

  it('names every folder of shared/ and of bin/', () => {
    for (const dir of subdirs('shared')) expect(entry('shared'), `shared/${dir}`).toMatch(new RegExp(`\\b${dir}\\b`));
    for (const dir of subdirs('bin')) expect(entry('bin'), `bin/${dir}`).toMatch(new RegExp(`\\b${dir}/`));
  });

  it('names every folder of functions/ that is not one resource’s handlers', () => {
    const operationFolders = new Set(table.map((r) => r.handler.split('/')[1]));
    for (const dir of subdirs('functions').filter((d) => !operationFolders.has(d)))
      expect(entry('functions'), `functions/${dir}`).toMatch(new RegExp(`\\b${dir}/`));
  });
});

/**
 * References to documents a reader of the repository cannot open. Each pattern is written so that
 * its own source text does not match it. A "§" followed by a number is a section of the benchmark
 * report (bench/report.md) only: in bench/, in docs/benchmarks.md, or right after "bench" or
 * "report.md"; anywhere else it points outside.
 */
const outside: { what: string; pattern: RegExp }[] = [
  { what: 'a numbered section of an outside specification', pattern: /\b[Ss]pec(?:\s|\*|\/\/|#)*\(?§? ?\d/ },
  {
    what: 'an outside specification by name',
    pattern: /\b(?:per|by|in) the spec\b|\b[Tt]he spec(?:'s| says| reads)\b/,
  },
  { what: 'an outside design document', pattern: /ARCHITECTUR[E]/ },
  { what: 'a numbered section of an outside decisions file', pattern: /decisions\.md\s*\(?§|[Cc]ontract §/ },
  { what: 'an item of an outside tracker', pattern: /\b[Ii]ssues?\s+#?\d/ },
  { what: 'an outside specification file', pattern: /\bapi-spec\.m[d]\b/ },
];
const SECTION = /§\s?\d/g;
const reportSection = (file: string, before: string) =>
  file.startsWith('bench/') ||
  file === 'docs/benchmarks.md' ||
  /(?:bench|Bench|report\.md|`npm run bench`)\s*$/.test(before);

/** Tracked text files, less the lockfile (written by npm). */
function trackedTextFiles(): { file: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  const out: { file: string; text: string }[] = [];
  for (const file of files) {
    if (file === 'package-lock.json') continue;
    let buffer: Buffer;
    try {
      buffer = readFileSync(path.join(root, file));
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    if (buffer.subarray(0, 8000).includes(0)) continue; // binary
    out.push({ file, text: buffer.toString('utf8') });
  }
  return out;
}

/** Every outside reference in `text` of `file`, as "file:line: what: excerpt". */
export function outsideReferences(file: string, text: string): string[] {
  const found: string[] = [];
  const at = (index: number, what: string, length: number) => {
    const line = text.slice(0, index).split('\n').length;
    const excerpt = text.slice(Math.max(0, index - 30), index + length + 30).replace(/\s+/g, ' ');
    found.push(`${file}:${line}: ${what}: …${excerpt}…`);
  };
  for (const { what, pattern } of outside)
    for (const m of text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))) at(m.index, what, m[0].length);
  for (const m of text.matchAll(SECTION)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (!reportSection(file, text.slice(lineStart, m.index)))
      at(m.index, 'a numbered section of an outside document', 2);
  }
  // A relative path to a `shared` folder that resolves outside the repository (the project's own
  // shared/ is fine: `../../shared/x` from functions/<resource>/ lands inside).
  // An import in a page's code example is relative to the example's file, not to the page.
  for (const m of text.matchAll(/(?:\.\.\/)+shared\b/g)) {
    const target = path.resolve(root, path.dirname(file), m[0]);
    const line = text.slice(text.lastIndexOf('\n', m.index) + 1, m.index);
    const example = file.endsWith('.md') && /^\s*(?:import|export)\b.*\bfrom\s*['"]$/.test(line);
    if (!target.startsWith(root) && !example) at(m.index, 'a folder beside the repository', m[0].length);
  }
  return found;
}

describe('references', () => {
  it('catch what they should, and let the project’s own through', () => {
    const S = String.fromCharCode(0xa7); // the section sign, kept out of this file's own text
    const bad = [
      `(${'spec'} 2.12)`,
      `see ${'ARCHI'}TECTURE ${S}6`,
      `${'decisions'}.md ${S}4`,
      `(${'issue'} 10, item 4)`,
      `(${S}5)`,
      `per ${'the'} spec`,
      `'../${'shared'}/spec'`,
    ];
    for (const text of bad) expect(outsideReferences('README.md', text), text).not.toEqual([]);
    const good = [
      '(docs/bookings.md, “States”)',
      `bench ${S}3 measures it`,
      `bench/report.md ${S}7`,
      "import { x } from '../../shared/routes';",
      'the OpenAPI spec',
    ];
    for (const text of good) expect(outsideReferences('functions/bookings/create.ts', text), text).toEqual([]);
    expect(outsideReferences('bench/run.ts', `// ${S}4`)).toEqual([]);
  });

  it('point nowhere outside the repository, in any tracked text file', () => {
    const found = trackedTextFiles().flatMap(({ file, text }) => outsideReferences(file, text));
    expect(found).toEqual([]);
  });
});
