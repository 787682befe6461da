/**
 * `Idempotency-Key` on POST over HTTP (docs/idempotency.md): replay, a different request with the
 * same key, a first request still running, a lease that ended, a failed first request, keys per
 * caller, and ten identical requests at once. Coursings are the operation under test: a create
 * that writes one item and one event, counted in a location of the file's own company.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type Answer } from '../support/http';
import { book, newPlace } from './bookings-helpers';
import { freshCompany, runningIdempotentRequest, testKey, type OwnCompany } from '../support/stage-data';

let own: OwnCompany;
let locationId: number;
beforeAll(async () => {
  own = await freshCompany('Idempotency test company');
  const out = await call('POST', '/api/v1/locations', { key: own.keys.admin, body: { name: 'Idempotent bistro', timezone: 'Europe/Stockholm', operatingHours: {} } });
  expect(out.status).toBe(200);
  locationId = out.body.data.id as number;
});

const course = (title: string) => ({ locationId, title, order: 1, color: '#AABBCC' });
const create = (key: string, body: unknown, apiKey = own.keys.admin) => call('POST', '/api/v1/coursings', { key: apiKey, body, headers: { 'Idempotency-Key': key } });
/** The coursings of the file's location with this title: what was really written. */
async function stored(title: string): Promise<string[]> {
  const out = await call('GET', `/api/v1/coursings?locationId=${locationId}&limit=100`, { key: own.keys.admin });
  expect(out.status).toBe(200);
  return (out.body.data as { id: string; title: string }[]).filter((c) => c.title === title).map((c) => c.id);
}
/** The coursing.created events of the company for this coursing. */
async function createdEvents(id: string): Promise<number> {
  const out = await call('GET', `/api/v1/events?type=coursing.created&limit=100`, { key: own.keys.admin });
  expect(out.status).toBe(200);
  return (out.body.data as { resourceId: string }[]).filter((e) => e.resourceId === id).length;
}

describe('Idempotency-Key on POST', () => {
  it('replays the first answer to a repeat, byte for byte, without a second write or event', async () => {
    const key = randomUUID();
    const first = await create(key, course('Replayed'));
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await create(key, course('Replayed'));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body); // the same id, the same meta.requestId
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe('application/json');
    expect(again.headers.get('x-ratelimit-limit')).not.toBeNull();
    // Another encoding of the same body (key order, whitespace) is the same request.
    const reordered = await call('POST', '/api/v1/coursings', { key: own.keys.admin, rawBody: `{ "color":"#AABBCC", "order":1,\n "title":"Replayed", "locationId":${locationId} }`, headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' } });
    expect(reordered.body).toEqual(first.body);
    expect(await stored('Replayed')).toEqual([first.body.data.id]);
    expect(await createdEvents(first.body.data.id)).toBe(1);
  });

  it('answers 422 to the same key with another request, writing nothing', async () => {
    const key = randomUUID();
    expect((await create(key, course('Mismatch A'))).status).toBe(200);
    const other = await create(key, course('Mismatch B'));
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ status: 'error', error: { code: 'UNPROCESSABLE', details: [{ path: '/headers/Idempotency-Key' }] } });
    expect(await stored('Mismatch B')).toEqual([]);
  });

  it('answers 409 with Retry-After while the first request runs, and runs a repeat once its lease ended', async () => {
    const running = randomUUID();
    await runningIdempotentRequest(own.companyId, own.keys.admin, running, { path: '/api/v1/coursings', body: course('In flight') }, 60_000);
    const busy = await create(running, course('In flight'));
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('CONFLICT');
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await stored('In flight')).toEqual([]);

    const died = randomUUID();
    await runningIdempotentRequest(own.companyId, own.keys.admin, died, { path: '/api/v1/coursings', body: course('Taken over') }, -1);
    const retried = await create(died, course('Taken over'));
    expect(retried.status).toBe(200);
    expect(await stored('Taken over')).toEqual([retried.body.data.id]);
  });

  it('gives the key up when the first request fails: a repeat runs afresh', async () => {
    const key = randomUUID();
    const failed = await create(key, { ...course('After a failure'), locationId: 999_999_999 });
    expect(failed.status).toBe(404);
    const ok = await create(key, course('After a failure'));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
    expect(await stored('After a failure')).toEqual([ok.body.data.id]);
  });

  it("keeps each caller's keys apart", async () => {
    const key = randomUUID();
    const other = await testKey(own.companyId, { permissions: ['coursings.create'] });
    const mine = await create(key, course('Per caller'));
    const theirs = await create(key, course('Per caller'), other);
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a key that is too long or not printable ASCII (400), and ignores the header on other methods', async () => {
    for (const bad of ['x'.repeat(256), 'has space']) {
      const out = await create(bad, course('Bad key'));
      expect(out.status).toBe(400);
      expect(out.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/headers/Idempotency-Key' }] });
    }
    expect(await stored('Bad key')).toEqual([]);
    const listed = await call('GET', `/api/v1/coursings?locationId=${locationId}`, { key: own.keys.admin, headers: { 'Idempotency-Key': 'x'.repeat(300) } });
    expect(listed.status).toBe(200);
  });

  it('writes exactly once for ten identical requests at once', async () => {
    const key = randomUUID();
    const answers: Answer[] = await Promise.all(Array.from({ length: 10 }, () => create(key, course('Raced'))));
    const ids = await stored('Raced');
    expect(ids).toHaveLength(1);
    for (const a of answers) {
      expect([200, 409]).toContain(a.status);
      if (a.status === 200) expect(a.body.data.id).toBe(ids[0]);
      else expect(a.body.error.code).toBe('CONFLICT');
    }
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(await createdEvents(ids[0]!)).toBe(1);
    // Once done, every repeat replays.
    expect((await create(key, course('Raced'))).body.data.id).toBe(ids[0]);
  });

  it('replays a public operation called without a credential (cancel by confirmation code)', async () => {
    const booking = await book(await newPlace());
    const key = randomUUID();
    const cancel = () => call('POST', `/api/v1/bookings/by-code/${booking.confirmationCode}/cancel`, { headers: { 'Idempotency-Key': key } });
    const first = await cancel();
    expect(first.status).toBe(200);
    const again = await cancel();
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});
