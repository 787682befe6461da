/**
 * The operation scaffolder (bin/tools/new-operation.ts; docs/adding-an-operation.md), run into a
 * temporary copy of the repository: what it writes compiles with the rest of the tree, the table
 * has the new row, and the fast registry test names what is still left to add by hand.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NewOperation, scaffold } from '../../bin/tools/new-operation';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');
const archive: NewOperation = {
  area: 'menu',
  operationId: 'archiveCoursing',
  method: 'POST',
  path: '/api/v1/coursings/{id}/archive',
  permission: 'coursings.update',
};

describe('scaffold (what it would write, read against this tree)', () => {
  it('adds the row to its area, the schemas, a domain function that refuses until written, the handler and an API test', () => {
    const files = scaffold(repo, archive);
    expect([...files.keys()].sort()).toEqual([
      'functions/coursings/archive-coursing.ts',
      'shared/domain/coursings.ts',
      'shared/routes/menu.ts',
      'shared/schemas/coursings.ts',
      'test/api/coursings-archive-coursing.test.ts',
    ]);
    const before = readFileSync(join(repo, 'shared/routes/menu.ts'), 'utf8');
    const after = files.get('shared/routes/menu.ts')!;
    // The area's file as it was, with the schemas' import and the row before its closing line.
    const importLine = "import * as coursingsSchemas from '../schemas/coursings';\n";
    expect(after).toContain(importLine);
    expect(after.replace(importLine, '').startsWith(before.slice(0, before.lastIndexOf('] as const;')))).toBe(true);
    expect(after).toContain("operationId: 'archiveCoursing'");
    expect(files.get('shared/domain/coursings.ts')).toContain("throw new Error('archiveCoursing is not written yet')");
    expect(files.get('functions/coursings/archive-coursing.ts')).toContain(
      'httpHandler(operation, (req) => archiveCoursing(req.principal, req.path, req.body))',
    );
  });

  it('gives a new area its file and its place in the table', () => {
    const files = scaffold(repo, {
      ...archive,
      area: 'loyalty',
      operationId: 'getLoyalty',
      method: 'GET',
      path: '/api/v1/loyalty',
      permission: 'loyalty.read',
    });
    expect(files.get('shared/routes/loyalty.ts')).toContain('export const loyaltyRoutes = [');
    const index = files.get('shared/routes/index.ts')!;
    expect(index).toContain("import { loyaltyRoutes } from './loyalty';");
    expect(index).toMatch(/\.\.\.loyaltyRoutes,\n\] as const satisfies readonly Route\[\];/);
  });

  it('refuses what it cannot place, saying what to send instead', () => {
    expect(() => scaffold(repo, { ...archive, path: '/coursings/{id}' })).toThrow(/--path/);
    expect(() => scaffold(repo, { ...archive, operationId: 'Archive' })).toThrow(/camelCase/);
    expect(() => scaffold(repo, { ...archive, handler: 'functions/coursings/create.ts' })).toThrow(/exists/);
    expect(() => scaffold(repo, { ...archive, path: '/api/v1/bookings/{id}/archive' })).toThrow(/folder/);
  });
});

describe('npm run new:operation, into a temporary tree', () => {
  let tree: string;
  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'brigade-new-operation-'));
    const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repo })
      .toString()
      .split('\0')
      .filter((file) => file && existsSync(join(repo, file)));
    for (const file of tracked) cpSync(join(repo, file), join(tree, file), { recursive: true, force: true });
    symlinkSync(join(repo, 'node_modules'), join(tree, 'node_modules'), 'dir');
    execFileSync(
      'npx',
      [
        'tsx',
        'bin/tools/new-operation.ts',
        'menu',
        'archiveCoursing',
        '--method',
        'POST',
        '--path',
        archive.path,
        '--permission',
        archive.permission,
      ],
      { cwd: tree, stdio: 'pipe' },
    );
  }, 120_000);
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('writes code that compiles with the whole tree', () => {
    const tsc = spawnSync('npx', ['tsc', '-p', '.'], { cwd: tree, encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 180_000);

  it('ran the generators: the operation has its module and is in the OpenAPI document', () => {
    expect(readFileSync(join(tree, 'shared/http/operations/archiveCoursing.ts'), 'utf8')).toContain(
      'operationId: "archiveCoursing"',
    );
    const document = JSON.parse(readFileSync(join(tree, 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(document.paths['/api/v1/coursings/{id}/archive']?.post?.operationId).toBe('archiveCoursing');
  });

  it('leaves the fast registry test naming what is still to add by hand: the benchmark fixture and the crash row', () => {
    const run = spawnSync('npx', ['vitest', 'run', '--project', 'unit', 'test/unit/registries.test.ts'], {
      cwd: tree,
      encoding: 'utf8',
      env: { ...process.env, CI: '1', FORCE_COLOR: '0' },
    });
    const out = run.stdout + run.stderr;
    expect(run.status).not.toBe(0);
    expect(out).toMatch(/has a benchmark fixture[\s\S]*"archiveCoursing"/);
    expect(out).toMatch(/has a crash-injection row[\s\S]*"archiveCoursing"/);
    expect(out).toContain('2 failed');
  }, 120_000);
});
