/**
 * The README's booking evening is run as written, against the suite's local stage, as a company of
 * its own: a newcomer who pastes it gets what it promises. The block's `BASE=` and `KEY=` lines are
 * the only ones replaced (the stage's URL, the company's admin key).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { devKeys } from '../support/http';
import { useOwnCompany } from './setup-helpers';

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
