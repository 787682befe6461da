/**
 * The dependency rules of docs/layering.md, checked on the import graph of a
 * source tree. Imports are read with the TypeScript parser: static imports and re-exports, `import
 * type`, `import('…')` types and dynamic `import('…')` with a literal specifier all make an edge.
 * A dynamic import of a computed path (the local stage loading the handler a route row names) is
 * not an edge: nothing can be known about it before run time.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import of a project file or a package; `typeOnly` imports are erased from the JavaScript. */
interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

export interface Graph {
  files: string[];
  /** Imports of files of the tree (paths relative to its root, with `/`). */
  edges: Edge[];
  /** Imports of packages (`to` is the specifier). */
  packages: Edge[];
  /** Relative imports that name no file: a typo or a module not generated yet. */
  unresolved: Edge[];
}

/** Folders whose files are checked; `test/fixtures` is left out (it breaks the rules on purpose). */
const SOURCE_DIRS = ['shared', 'functions', 'bin', 'infra', 'bench', 'test'];
const SKIPPED = ['node_modules', `test${sep}fixtures`];

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (SKIPPED.some((s) => relative(root, path) === s || name === s)) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(relative(root, path).split(sep).join('/'));
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(join(root, dir))) walk(join(root, dir));
  return out;
}

function importsOf(file: string, text: string): { specifier: string; typeOnly: boolean }[] {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) found.push({ specifier: arg.text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveRelative(root: string, from: string, specifier: string): string | undefined {
  const base = resolve(root, dirname(from), specifier);
  const candidates = [base, `${base}.ts`, join(base, 'index.ts'), base.replace(/\.m?js$/, '.ts')];
  const file = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return file && relative(root, file).split(sep).join('/');
}

/** `@scope/pkg/deep/path` → `@scope/pkg`; `node:fs` and `fs` → `node:fs`. */
function packageName(specifier: string): string {
  if (isBuiltin(specifier)) return specifier.startsWith('node:') ? specifier : `node:${specifier}`;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

export function importGraph(root: string): Graph {
  const graph: Graph = { files: sourceFiles(root), edges: [], packages: [], unresolved: [] };
  for (const from of graph.files) {
    for (const { specifier, typeOnly } of importsOf(from, readFileSync(join(root, from), 'utf8'))) {
      if (!specifier.startsWith('.')) {
        graph.packages.push({ from, to: packageName(specifier), typeOnly });
        continue;
      }
      const to = resolveRelative(root, from, specifier);
      if (to) graph.edges.push({ from, to, typeOnly });
      else graph.unresolved.push({ from, to: specifier, typeOnly });
    }
  }
  return graph;
}

const under = (file: string, prefixes: readonly string[]) =>
  prefixes.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));

/** What each rule says, by the name a violation carries. */
export const rules = {
  unresolved: 'a relative import names a file that exists',
  cycles: 'no import cycles among shared/, functions/, bin/, infra/ and bench/ (type-only and dynamic imports count)',
  data: 'shared/data imports nothing from shared/domain, auth, http or routes: operations use data, never the reverse',
  schemas: 'shared/schemas is the bottom layer: it imports nothing from shared/domain, auth, data, http or routes',
  domain: 'shared/domain imports nothing from shared/http or shared/routes: a domain call takes plain arguments',
  functions: 'nothing imports from functions/ (each file is a Lambda entry point); only tests do, to exercise handlers',
  handlers:
    'a handler loads its own operation module (shared/http/operations/), not the route table; `import type` of it is erased (functions/fallback.ts excepted: it answers 404/405 from the table)',
  infra: "infra/ reaches the route table, the schemas and plain data only, nothing of the handlers' runtime",
  infraPackages: "infra/ loads no package of the handlers' runtime, directly or through the files it reaches",
  openapi:
    'shared/openapi (the description built from the route table) is read only by the scripts that write it (bin/tools/), the handlers that serve it and the docs page (functions/openapi/) and tests',
} as const;
export type Rule = keyof typeof rules;

export interface Violation {
  rule: Rule;
  from: string;
  to: string;
}

/** Imports from files under `from` (any file when absent) of files under `to` are refused. */
const forbidden: {
  rule: Rule;
  from?: readonly string[];
  to: readonly string[];
  importersExcept?: readonly string[];
}[] = [
  { rule: 'data', from: ['shared/data/'], to: ['shared/domain/', 'shared/auth/', 'shared/http/', 'shared/routes/'] },
  {
    rule: 'schemas',
    from: ['shared/schemas/'],
    to: ['shared/domain/', 'shared/auth/', 'shared/data/', 'shared/http/', 'shared/routes/'],
  },
  { rule: 'domain', from: ['shared/domain/'], to: ['shared/http/', 'shared/routes/'] },
  { rule: 'functions', to: ['functions/'], importersExcept: ['test/'] },
  {
    rule: 'openapi',
    to: ['shared/openapi/'],
    importersExcept: ['shared/openapi/', 'bin/tools/', 'functions/openapi/', 'test/'],
  },
];

/** The handlers' runtime, which infra/ must not reach; and the plain-data files inside those folders, which it may. */
const RUNTIME = ['functions/', 'shared/domain/', 'shared/auth/', 'shared/data/', 'shared/http/', 'shared/ports/'];
const PLAIN_DATA = ['shared/data/table.ts', 'shared/http/envelope.ts', 'shared/http/cors.ts'];
/** Packages whose code infra/ may load (an `import type` of any package loads nothing). */
const INFRA_PACKAGES = ['aws-cdk-lib', 'constructs', 'cdk-nag', '@sinclair/typebox'];
const isRuntime = (file: string) => under(file, RUNTIME) && !under(file, PLAIN_DATA);

/**
 * Files under `infra/` and every file they reach through files infra may reach; a runtime file
 * ends the walk (the import that reached it is the violation, not what it imports in turn).
 */
function infraReach(graph: Graph): Set<string> {
  const queue = graph.files.filter((f) => f.startsWith('infra/'));
  const reached = new Set(queue);
  for (let i = 0; i < queue.length; i++) {
    for (const e of graph.edges) {
      if (e.from !== queue[i] || reached.has(e.to) || isRuntime(e.to)) continue;
      reached.add(e.to);
      queue.push(e.to);
    }
  }
  return reached;
}

/** Strongly connected components (Tarjan) of more than one file, or of a file importing itself. */
function cycles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next.get(v)!.includes(v)) found.push(component);
    }
  };
  for (const f of files) if (!index.has(f)) connect(f);
  return found;
}

const CYCLE_SCOPE = ['shared/', 'functions/', 'bin/', 'infra/', 'bench/'];

/** Handlers that answer from the whole table by design. */
const TABLE_HANDLERS = ['functions/fallback.ts'];

/** Value imports (what a bundle holds) that take a handler, directly or through other files, into the route table. */
function handlerTableImports(graph: Graph, edges: Edge[]): Edge[] {
  const loads = edges.filter((e) => !e.typeOnly);
  const queue = graph.files.filter((f) => f.startsWith('functions/') && !TABLE_HANDLERS.includes(f));
  const reached = new Set(queue);
  for (let i = 0; i < queue.length; i++) {
    for (const e of loads) {
      if (e.from !== queue[i] || reached.has(e.to) || e.to.startsWith('shared/routes/')) continue;
      reached.add(e.to);
      queue.push(e.to);
    }
  }
  return loads.filter((e) => reached.has(e.from) && e.to.startsWith('shared/routes/'));
}

/** Every broken rule, one per offending import (file → file, or file → package), in a stable order. */
export function checkLayering(graph: Graph): Violation[] {
  const out: Violation[] = graph.unresolved.map((e) => ({ rule: 'unresolved', from: e.from, to: e.to }));
  const edges = [...new Map(graph.edges.map((e) => [`${e.from} ${e.to}`, e])).values()];

  const scoped = edges.filter((e) => under(e.from, CYCLE_SCOPE) && under(e.to, CYCLE_SCOPE));
  for (const component of cycles(
    graph.files.filter((f) => under(f, CYCLE_SCOPE)),
    scoped,
  )) {
    const members = new Set(component);
    for (const e of scoped)
      if (members.has(e.from) && members.has(e.to)) out.push({ rule: 'cycles', from: e.from, to: e.to });
  }

  for (const f of forbidden) {
    for (const e of edges) {
      if ((!f.from || under(e.from, f.from)) && under(e.to, f.to) && !under(e.from, f.importersExcept ?? []))
        out.push({ rule: f.rule, from: e.from, to: e.to });
    }
  }

  for (const e of handlerTableImports(graph, edges)) out.push({ rule: 'handlers', from: e.from, to: e.to });

  const reach = infraReach(graph);
  for (const e of edges) if (reach.has(e.from) && isRuntime(e.to)) out.push({ rule: 'infra', from: e.from, to: e.to });
  const loaded = new Map(graph.packages.filter((p) => !p.typeOnly).map((p) => [`${p.from} ${p.to}`, p]));
  for (const p of loaded.values()) {
    if (reach.has(p.from) && !p.to.startsWith('node:') && !INFRA_PACKAGES.includes(p.to))
      out.push({ rule: 'infraPackages', from: p.from, to: p.to });
  }

  return out.sort((a, b) => a.rule.localeCompare(b.rule) || a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/** One line per offending import, under the rule it breaks: the failure message. */
export function describeViolations(violations: readonly Violation[]): string {
  const byRule = new Map<Rule, Violation[]>();
  for (const v of violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
  return [...byRule]
    .map(([rule, vs]) => [`${rules[rule]}:`, ...vs.map((v) => `  ${v.from} → ${v.to}`)].join('\n'))
    .join('\n');
}
