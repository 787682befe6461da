/**
 * `Idempotency-Key` on POST over HTTP (docs/idempotency.md): replay, a different request with the
 * same key, a first request still running, a lease that ended, a failed first request, keys per
 * caller, and ten identical requests at once. Coursings are the operation under test: a create
 * that writes one item and one event, counted in a location of the file's own company. Through the
 * typed client (test/support/client.ts): `Idempotency-Key` is a header parameter the document
 * declares on every POST.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf } from '../support/client';
import { call, devKeys } from '../support/http';
import { unknownUuid } from './setup-helpers';
import { book, newPlace } from './bookings-helpers';
import { freshCompany, runningIdempotentRequest, testKey, userToken, type OwnCompany } from '../support/stage-data';

let own: OwnCompany;
let locationId: number;
const admin = () => apiClient({ key: own.keys.admin });
beforeAll(async () => {
  own = await freshCompany('Idempotency test company');
  const made = await admin().POST('/api/v1/locations', {
    body: { name: 'Idempotent bistro', timezone: 'Europe/Stockholm', operatingHours: {} },
  });
  locationId = dataOf(made).id;
});

const course = (title: string) => ({ locationId, title, order: 1, color: '#AABBCC' });
const create = (key: string, body: ReturnType<typeof course>, apiKey = own.keys.admin) =>
  apiClient({ key: apiKey }).POST('/api/v1/coursings', { body, params: { header: { 'Idempotency-Key': key } } });
/** The coursings of the file's location with this title: what was really written. */
async function stored(title: string): Promise<string[]> {
  const listed = dataOf(await admin().GET('/api/v1/coursings', { params: { query: { locationId, limit: 100 } } }));
  return listed.filter((c) => c.title === title).map((c) => c.id);
}
/** The coursing.created events of the company for this coursing. */
async function createdEvents(id: string): Promise<number> {
  const events = dataOf(
    await admin().GET('/api/v1/events', { params: { query: { type: 'coursing.created', limit: 100 } } }),
  );
  return events.filter((e) => e.resourceId === id).length;
}

describe('Idempotency-Key on POST', () => {
  it('replays the first answer to a repeat, byte for byte, without a second write or event', async () => {
    const key = randomUUID();
    const first = await create(key, course('Replayed'));
    const id = dataOf(first).id;
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    const again = await create(key, course('Replayed'));
    expect(again.response.status).toBe(200);
    expect(again.data).toEqual(first.data); // the same id, the same meta.requestId
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.response.headers.get('content-type')).toBe('application/json');
    expect(again.response.headers.get('x-ratelimit-limit')).not.toBeNull();
    // Another encoding of the same body (key order, whitespace) is the same request: sent as its text, with `call()`.
    const reordered = await call('POST', '/api/v1/coursings', {
      key: own.keys.admin,
      rawBody: `{ "color":"#AABBCC", "order":1,\n "title":"Replayed", "locationId":${locationId} }`,
      headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
    });
    expect(reordered.body).toEqual(first.data);
    expect(await stored('Replayed')).toEqual([id]);
    expect(await createdEvents(id)).toBe(1);
  });

  it('answers 422 to the same key with another request, writing nothing', async () => {
    const key = randomUUID();
    dataOf(await create(key, course('Mismatch A')));
    const other = await create(key, course('Mismatch B'));
    expect(other.response.status).toBe(422);
    expect(other.error).toMatchObject({
      status: 'error',
      error: { code: 'UNPROCESSABLE', details: [{ path: '/headers/Idempotency-Key' }] },
    });
    expect(await stored('Mismatch B')).toEqual([]);
  });

  it('answers 409 with Retry-After while the first request runs, and runs a repeat once its lease ended', async () => {
    const running = randomUUID();
    await runningIdempotentRequest(
      own.companyId,
      own.keys.admin,
      running,
      { path: '/api/v1/coursings', body: course('In flight') },
      60_000,
    );
    const busy = await create(running, course('In flight'));
    expect(busy.response.status).toBe(409);
    expect(busy.error?.error.code).toBe('CONFLICT');
    expect(busy.response.headers.get('retry-after')).toBe('1');
    expect(await stored('In flight')).toEqual([]);

    const died = randomUUID();
    await runningIdempotentRequest(
      own.companyId,
      own.keys.admin,
      died,
      { path: '/api/v1/coursings', body: course('Taken over') },
      -1,
    );
    const retried = dataOf(await create(died, course('Taken over')));
    expect(await stored('Taken over')).toEqual([retried.id]);
  });

  it('gives the key up when the first request fails: a repeat runs afresh', async () => {
    const key = randomUUID();
    const failed = await create(key, { ...course('After a failure'), locationId: 999_999_999 });
    expect(failed.response.status).toBe(404);
    const ok = await create(key, course('After a failure'));
    expect(ok.response.headers.get('idempotent-replayed')).toBeNull();
    expect(await stored('After a failure')).toEqual([dataOf(ok).id]);
  });

  // Every role that runs a POST gives up a failed request's key (its record, in its company's
  // partition, goes: a DeleteItem of that role, checked against it by test/support/iam-check.ts).
  it('gives the key up after a failure in every area whose POSTs fail inside the operation', async () => {
    const failed = async (
      path: string,
      options: { key?: string; token?: string; body?: unknown; headers?: Record<string, string> },
      status: number,
    ) => {
      const out = await call('POST', path, {
        ...options,
        body: options.body ?? {},
        headers: { ...options.headers, 'Idempotency-Key': randomUUID() },
      });
      expect(out.status, path).toBe(status);
    };
    // guests: the X-Location-Id location is not the company's (404 from the operation).
    await failed(
      '/api/v1/users/guests',
      { key: own.keys.admin, body: { name: 'Nowhere guest' }, headers: { 'X-Location-Id': '999999999' } },
      404,
    );
    await failed(`/api/v1/alerts/${unknownUuid}/acknowledge`, { key: own.keys.admin }, 404); // alerts
    await failed(
      `/api/v1/booking-waitlist/${unknownUuid}/offer`,
      { key: own.keys.admin, body: { tableIds: [unknownUuid], startTime: '20:30' } },
      404,
    ); // waitlist
    await failed(`/api/v1/api-keys/${unknownUuid}/revoke`, { key: own.keys.admin }, 404); // access, api_keys.manage
    await failed(
      '/api/v1/companies/999999999/api-keys',
      { token: devKeys().operatorToken, body: { name: 'Nobody' } },
      404,
    ); // companies.manage
    // companies.create: a user holding the permission who is not an internal operator (403 from the operation).
    await failed(
      '/api/v1/companies',
      { token: await userToken(own.companyId, ['companies.create']), body: { name: 'Not an operator' } },
      403,
    );
  });

  it("keeps each caller's keys apart", async () => {
    const key = randomUUID();
    const other = await testKey(own.companyId, { permissions: ['coursings.create'] });
    const mine = await create(key, course('Per caller'));
    const theirs = await create(key, course('Per caller'), other);
    expect([mine.response.status, theirs.response.status]).toEqual([200, 200]);
    expect(dataOf(theirs).id).not.toBe(dataOf(mine).id);
    expect(theirs.response.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a key that is too long or not printable ASCII (400), and ignores the header on other methods', async () => {
    for (const bad of ['x'.repeat(256), 'has space']) {
      const out = await create(bad, course('Bad key'));
      expect(out.response.status).toBe(400);
      expect(out.error?.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ path: '/headers/Idempotency-Key' }],
      });
    }
    expect(await stored('Bad key')).toEqual([]);
    // GET declares no Idempotency-Key: sent as a plain header
    const listed = await admin().GET('/api/v1/coursings', {
      params: { query: { locationId } },
      headers: { 'Idempotency-Key': 'x'.repeat(300) },
    });
    expect(listed.response.status).toBe(200);
  });

  it('writes exactly once for ten identical requests at once', async () => {
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(key, course('Raced'))));
    const ids = await stored('Raced');
    expect(ids).toHaveLength(1);
    for (const a of answers) {
      expect([200, 409]).toContain(a.response.status);
      if (a.response.status === 200) expect(a.data?.data.id).toBe(ids[0]);
      else expect(a.error?.error.code).toBe('CONFLICT');
    }
    expect(answers.some((a) => a.response.status === 200)).toBe(true);
    expect(await createdEvents(ids[0]!)).toBe(1);
    // Once done, every repeat replays.
    expect(dataOf(await create(key, course('Raced'))).id).toBe(ids[0]);
  });

  it('replays a public operation called without a credential (cancel by confirmation code)', async () => {
    const booking = await book(await newPlace());
    const key = randomUUID();
    const cancel = () =>
      apiClient().POST('/api/v1/bookings/by-code/{code}/cancel', {
        params: { path: { code: booking.confirmationCode }, header: { 'Idempotency-Key': key } },
      });
    const first = await cancel();
    expect(first.response.status).toBe(200);
    const again = await cancel();
    expect(again.data).toEqual(first.data);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
  });
});
