/**
 * `npm start` as a newcomer runs it: serves /live, writes dev-keys.json as the contract describes
 * (decisions.md §8), and leaves no Java process behind when stopped. How fast it starts (budget
 * 15 s) is measured by `npm run bench`, not asserted here: these machines are noisy.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bin/local/dynamodb';

const localDir = mkdtempSync(join(tmpdir(), 'brigade-start-'));
afterAll(() => rmSync(localDir, { recursive: true, force: true }));

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('npm start', () => {
  it('serves /live, writes dev-keys.json per the contract, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    // Its own process group, so the test can see every process it started (npm, tsx, node, java).
    const child = spawn('npm', ['start'], { detached: true, stdio: 'ignore', env: { ...process.env, PORT: String(port), LOCAL_DIR: localDir } });
    try {
      await waitFor(async () => ((await fetch(`http://127.0.0.1:${port}/live`)).ok ? true : undefined), 60_000);

      // /live answers as soon as the server listens; the seed then writes dev-keys.json.
      const devKeys = await waitFor(async () => JSON.parse(readFileSync(join(localDir, 'dev-keys.json'), 'utf8')), 60_000);
      expect(devKeys).toEqual({
        baseUrl: `http://127.0.0.1:${port}`,
        operatorToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        companies: [expect.anything(), expect.anything()],
      });
      for (const c of devKeys.companies) {
        expect(c).toEqual({ companyId: expect.any(Number), name: expect.any(String), locations: expect.any(Array), keys: expect.any(Object) });
        expect(Object.keys(c.keys).sort()).toEqual(['admin', 'premium', 'readonly', 'standard']);
        for (const key of Object.values(c.keys)) expect(key).toMatch(/^brigade_dev_[a-z0-9]{12}_[A-Za-z0-9]{40}$/);
        expect(c.locations.length).toBeGreaterThanOrEqual(1);
        for (const l of c.locations) {
          expect(l).toEqual({ locationId: expect.any(Number), name: expect.any(String), timezone: expect.any(String), tables: expect.any(Array) });
          expect(l.tables.length).toBeGreaterThanOrEqual(8);
          for (const t of l.tables) expect(t).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: expect.any(String), minCapacity: expect.any(Number), maxCapacity: expect.any(Number) });
          expect(new Set(l.tables.map((t: { maxCapacity: number }) => t.maxCapacity)).size).toBeGreaterThan(2);
        }
      }
      expect(devKeys.companies[0].companyId).toBe(1);
      expect(devKeys.companies[0].locations[0]).toMatchObject({ locationId: 101, timezone: 'Europe/Stockholm' });

      // Each key's tier shows in its limit header; readonly may read but not write.
      const limitOf = async (key: string) => (await fetch(`${devKeys.baseUrl}/api/v1/coursings`, { headers: { 'X-API-Key': key } })).headers.get('x-ratelimit-limit');
      const keys = devKeys.companies[0].keys;
      expect(await limitOf(keys.admin)).toBe('100000');
      expect(await limitOf(keys.readonly)).toBe('1000');
      expect(await limitOf(keys.standard)).toBe('1000');
      expect(await limitOf(keys.premium)).toBe('10000');
      const write = await fetch(`${devKeys.baseUrl}/api/v1/coursings`, { method: 'POST', headers: { 'X-API-Key': keys.readonly, 'Content-Type': 'application/json' }, body: '{"locationId":101,"title":"x","order":1}' });
      expect(write.status).toBe(403);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
    await waitFor(async () => (groupAlive(child.pid!) ? undefined : true), 15_000);
    expect(groupAlive(child.pid!)).toBe(false);
  });
});
