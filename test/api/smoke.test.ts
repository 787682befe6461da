/**
 * `npm run smoke` (bin/tools/smoke.ts) against the suite's local stage, as a company of its own: the
 * evening passes step by step and leaves no location or table behind; a wrong key fails it at its
 * first keyed step, with nothing created. (`.ci/run` also runs the command itself against `npm start`.)
 */
import { describe, expect, it } from 'vitest';
import { smoke } from '../../bin/tools/smoke';
import { devKeys } from '../support/http';
import { useOwnCompany } from './setup-helpers';

const own = useOwnCompany('smoke test');

describe('npm run smoke', () => {
  it('walks the booking evening and removes the location and table it made', async () => {
    const lines: string[] = [];
    const before = await fetch(`${devKeys().baseUrl}/api/v1/locations`, {
      headers: { 'X-API-Key': own().keys.admin },
    }).then((r) => r.json() as Promise<{ data: unknown[] }>);
    const result = await smoke({
      baseUrl: devKeys().baseUrl,
      key: own().keys.admin,
      print: (line) => lines.push(line),
    });
    expect(result.ok, lines.join('\n')).toBe(true);
    expect(result.steps.map((s) => s.name)).toContain('pay the rest; the tab closes');
    expect(result.steps.every((s) => s.ok)).toBe(true);
    expect(lines.at(-1)).toMatch(/^Smoke test passed/);
    const after = await fetch(`${devKeys().baseUrl}/api/v1/locations`, {
      headers: { 'X-API-Key': own().keys.admin },
    }).then((r) => r.json() as Promise<{ data: unknown[] }>);
    expect(after.data).toEqual(before.data);
  });

  it('fails at the first keyed step with a wrong key, and has nothing to clean up', async () => {
    const lines: string[] = [];
    const result = await smoke({
      baseUrl: devKeys().baseUrl,
      key: 'brigade_dev_nosuchkey_x',
      print: (line) => lines.push(line),
    });
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => [s.name, s.ok])).toEqual([
      ['the stage is live', true],
      ['create a location', false],
    ]);
    expect(lines.at(-1)).toMatch(/^Smoke test FAILED/);
  });
});
