/**
 * The README's walk-throughs are run as written, against the suite's local stage, as a company of
 * its own: a newcomer who pastes them gets what they promise. Only the lines that name the stage
 * and the caller are replaced: `BASE=` (the stage's URL), `KEY=` (the company's admin key), and in
 * the tour `TOKEN=` (the stage's operator token) and `LOCATION=` (a location of the company's own).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { call, devKeys } from '../support/http';
import { newTable, useOwnCompany } from './setup-helpers';

const run = promisify(execFile);
const own = useOwnCompany('README evening');

/** The first sh block after the heading. */
function blockAfter(heading: string): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const from = readme.indexOf(heading);
  expect(from, `README.md has "${heading}"`).toBeGreaterThan(-1);
  const match = /```sh\n([\s\S]*?)```/.exec(readme.slice(from));
  expect(match, `a sh block after "${heading}"`).not.toBeNull();
  return match![1]!;
}

describe('README: a booking evening', () => {
  it('runs as written: every step succeeds, the tab closes with the second payment, the review is stored', async () => {
    const block = blockAfter('### A booking evening, start to finish');
    expect(block).toMatch(/^BASE=.*$/m);
    expect(block).toMatch(/^KEY=.*$/m);
    const script = block
      .replace(/^BASE=.*$/m, `BASE=${devKeys().baseUrl}`)
      .replace(/^KEY=.*$/m, `KEY=${own().keys.admin}`);
    // -e and pipefail: any step whose answer is not a success (data exits 1 on it) stops the run.
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: 60_000 });
    const lines = stdout.trim().split('\n');
    // table id, seated status, two order ids, due after the first payment, tab status, rating, booking status
    expect(lines, stdout).toHaveLength(8);
    expect(lines[1]).toBe('seated');
    expect(lines[4]).toBe('30000');
    expect(lines[5]).toBe('closed');
    expect(lines[6]).toBe('5');
    expect(['seated', 'completed']).toContain(lines[7]);
  });
});

describe('README: the tour (Try it)', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'brigade-readme-tour-'));
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('names the stage once, in BASE, and leaves nothing to fill in by hand', () => {
    const block = blockAfter('## Try it');
    expect(block).toMatch(/^BASE=http:\/\/127\.0\.0\.1:3000$/m);
    expect(block.match(/https?:\/\//g), 'URLs written out').toHaveLength(1);
    expect(block.match(/:3000\b/g), 'the port').toHaveLength(1);
    expect(block.match(/<[^<>\s]+>/g) ?? [], 'placeholders such as <id>').toEqual([]);
  });

  it('runs as written: every step succeeds, ids taken from earlier answers', { timeout: 60_000 }, async () => {
    const block = blockAfter('## Try it');
    for (const line of [/^BASE=.*$/m, /^KEY=.*$/m, /^TOKEN=.*$/m, /^LOCATION=.*$/m]) expect(block).toMatch(line);
    // A location of the company's own, open every day, with tables for four: the tour books one tomorrow.
    const hours = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
        d,
        [{ open: '11:00', close: '23:00' }],
      ]),
    );
    const location = await call('POST', '/api/v1/locations', {
      key: own().keys.admin,
      body: { name: 'README tour', timezone: 'Europe/Stockholm', country: 'SE', operatingHours: hours },
    });
    expect(location.status, JSON.stringify(location.body)).toBe(200);
    const locationId = location.body.data.id as number;
    await newTable(locationId, { name: 'T1', minCapacity: 2, maxCapacity: 4 });
    await newTable(locationId, { name: 'T2', minCapacity: 4, maxCapacity: 6 });
    const script = block
      .replace(/^BASE=.*$/m, `BASE=${devKeys().baseUrl}`)
      .replace(/^KEY=.*$/m, `KEY=${own().keys.admin}`)
      .replace(/^TOKEN=.*$/m, `TOKEN=${devKeys().operatorToken}`)
      .replace(/^LOCATION=.*$/m, `LOCATION=${locationId}`);
    // -e: a failing step stops the run (keep_id exits 1 on an error answer; grep finds no header). Not
    // pipefail: `curl | head -c 300` may end curl with SIGPIPE, as it does in a newcomer's shell.
    const { stdout, stderr } = await run('bash', ['-eu', '-c', script], { cwd, timeout: 60_000 });
    // The coursing made first is the one renamed: its id came from the create's answer.
    // keep_id writes the answer it read to stderr, one line; the shell may write lines of its own there.
    const answerLine = stderr.split('\n').find((line) => line.startsWith('{'));
    expect(answerLine, stderr).toBeDefined();
    const created = JSON.parse(answerLine!) as { data: { id: string; title: string } };
    expect(created.data.title).toBe('Starters');
    expect(stdout).toContain(`"id":"${created.data.id}"`);
    expect(stdout).toContain('"title":"Small plates"');
    expect(stdout).toMatch(/x-ratelimit-limit/i);
    expect(stdout).toContain('"guestName":"Ada"');
    expect(stdout).toContain('"status":"alive"');
    expect(stdout, 'an error answer').not.toContain('"status":"error"');
    // The export was saved in the working directory under the name the API gave it.
    const saved = readdirSync(cwd);
    expect(saved).toHaveLength(1);
    expect(readFileSync(join(cwd, saved[0]!), 'utf8')).not.toContain('"status":"error"');
  });
});
