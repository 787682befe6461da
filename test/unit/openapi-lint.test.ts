/**
 * The OpenAPI document, built from the route table as it is now (so a row or a schema added later is
 * linted too), passes Spectral (ruleset `spectral:oas`, `.spectral.yaml`) and Redocly (`recommended`,
 * `redocly.yaml`) with no error and no warning (docs/openapi.md, "How it is tested"). Both CLIs run
 * offline, on two files: the document, and a small one spoiled on purpose that each must refuse, so
 * a lint that silently checks nothing fails here too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { openApiDocument, type Json } from '../../shared/openapi/document';
import { routes } from '../../shared/routes';

const root = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'brigade-openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const document = openApiDocument();
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(document));

/** A small document (one row's) without a contact, its tag's description, and with a schema nothing uses. */
const spoiled = openApiDocument(routes.filter((r) => r.operationId === 'live')) as Json & {
  info: Json;
  tags: Json[];
  components: { schemas: Record<string, Json> };
};
delete spoiled.info.contact;
delete spoiled.tags[0]!.description;
spoiled.components.schemas.NothingUsesThis = { type: 'string' };
const spoiledFile = join(dir, 'spoiled.json');
writeFileSync(spoiledFile, JSON.stringify(spoiled));

/** A CLI of node_modules/.bin; its output whatever its exit code (non-zero when it found something). */
const cli = (name: string, args: string[]) =>
  new Promise<string>((ok, fail) =>
    execFile(
      join(root, 'node_modules/.bin', name),
      args,
      {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
        // Nothing leaves the machine: no usage report, no check for a newer version.
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          NO_UPDATE_NOTIFIER: '1',
        },
      },
      (err, stdout, stderr) =>
        stdout.trim().startsWith('[') || stdout.trim().startsWith('{')
          ? ok(stdout)
          : fail(new Error(`${name} gave no report (${err?.message ?? 'exit 0'}): ${stderr}`)),
    ),
  );

interface Finding {
  file: string;
  rule: string;
  where: string;
  message: string;
}
const inFile = (findings: Finding[], name: string) => findings.filter((f) => f.file.endsWith(name));
const said = (findings: Finding[]) => findings.map((f) => `${f.rule} at ${f.where}: ${f.message}`);

// The two CLIs run side by side: each waits mostly on its own process.
describe.concurrent('the OpenAPI document lints clean', () => {
  it('Spectral, ruleset spectral:oas: no error, no warning', { timeout: 60_000 }, async ({ expect }) => {
    const out = await cli('spectral', [
      'lint',
      file,
      spoiledFile,
      '--ruleset',
      join(root, '.spectral.yaml'),
      '--format',
      'json',
      '--fail-severity',
      'hint',
    ]);
    const findings = (
      JSON.parse(out) as { source: string; code: string; path: string[]; message: string; severity: number }[]
    ).map((r) => ({ file: r.source, rule: r.code, where: r.path.join('/'), message: r.message }));
    expect(said(inFile(findings, 'openapi.json'))).toEqual([]);
    expect(inFile(findings, 'spoiled.json').map((f) => f.rule)).toEqual(
      expect.arrayContaining(['info-contact', 'oas3-unused-component']),
    );
  });

  it('Redocly lint, recommended: no error, no warning', { timeout: 60_000 }, async ({ expect }) => {
    // One file a run: its JSON report is one object per file, written one after the other.
    const lint = async (path: string): Promise<Finding[]> =>
      (
        JSON.parse(
          await cli('redocly', [
            'lint',
            path,
            '--config',
            join(root, 'redocly.yaml'),
            '--format',
            'json',
            '--max-problems',
            '10000',
          ]),
        ) as { problems: { ruleId: string; message: string; location: { pointer: string }[] }[] }
      ).problems.map((p) => ({ file: path, rule: p.ruleId, where: p.location[0]!.pointer, message: p.message }));
    const findings = (await Promise.all([lint(file), lint(spoiledFile)])).flat();
    expect(said(inFile(findings, 'openapi.json'))).toEqual([]);
    expect(inFile(findings, 'spoiled.json').map((f) => f.rule)).toEqual(
      expect.arrayContaining(['tag-description', 'no-unused-components']),
    );
  });
});
