/**
 * Coursings over HTTP against the local stage (issue acceptance list). The file acts as a company
 * of its own, with two locations of its own, so no other file's traffic moves its lists or its
 * keys' rate windows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, company, inOneRateWindow } from '../support/http';
import { freshCompany, testKey, type OwnCompany } from '../support/stage-data';
import { wrongByOne } from '../support/wrong-key';

let own: OwnCompany;
let locations: [number, number];
beforeAll(async () => {
  own = await freshCompany('Coursings test company');
  const make = async (name: string) => {
    const out = await call('POST', '/api/v1/locations', {
      key: own.keys.admin,
      body: { name, timezone: 'Europe/Stockholm', operatingHours: {} },
    });
    expect(out.status).toBe(200);
    return out.body.data.id as number;
  };
  locations = [await make('Coursings bistro'), await make('Coursings annex')];
});
const admin = () => own.keys.admin;
const location = () => locations[0];

const rateHeaders = (h: Headers) => ({
  limit: h.get('x-ratelimit-limit'),
  remaining: h.get('x-ratelimit-remaining'),
  reset: h.get('x-ratelimit-reset'),
});

describe('coursings over HTTP', () => {
  it('creates, lists and updates a coursing', async () => {
    const created = await call('POST', '/api/v1/coursings', {
      key: admin(),
      body: { locationId: location(), title: 'Starters', order: 1, color: '#AABBCC' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: 'success',
      data: { title: 'Starters', order: 1, color: '#AABBCC', locationId: location() },
      meta: { requestId: expect.any(String) },
    });
    const id = created.body.data.id as string;

    const listed = await call('GET', `/api/v1/coursings?locationId=${location()}&limit=100`, { key: admin() });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(id);
    expect(listed.body.meta.pagination).toMatchObject({
      page: 1,
      limit: 100,
      total: expect.any(Number),
      totalPages: expect.any(Number),
    });

    const updated = await call('PUT', `/api/v1/coursings/${id}`, {
      key: admin(),
      body: { title: 'Small plates', color: null },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id, title: 'Small plates', order: 1, color: null, version: 2 });
  });

  it('accepts an internal operator bearer token', async () => {
    const { devKeys } = await import('../support/http');
    const out = await call('GET', '/api/v1/coursings', { token: devKeys().operatorToken });
    expect(out.status).toBe(200);
  });

  it('answers 401 without a key and with a wrong key', async () => {
    expect((await call('GET', '/api/v1/coursings')).body.error.code).toBe('UNAUTHENTICATED');
    const wrong = wrongByOne(admin());
    const out = await call('GET', '/api/v1/coursings', { key: wrong });
    expect(out.status).toBe(401);
    expect(out.body).toMatchObject({ status: 'error', error: { code: 'UNAUTHENTICATED' } });
    expect((await call('GET', '/api/v1/coursings', { token: 'not.a.jwt' })).status).toBe(401);
  });

  it('answers 403 when the readonly key creates a coursing', async () => {
    const out = await call('POST', '/api/v1/coursings', {
      key: own.keys.readonly,
      body: { locationId: location(), title: 'Nope', order: 1 },
    });
    expect(out.status).toBe(403);
    expect(out.body.error.code).toBe('FORBIDDEN');
  });

  it('answers 400 for malformed JSON and for an out-of-bounds order, with details', async () => {
    const malformed = await call('POST', '/api/v1/coursings', {
      key: admin(),
      rawBody: '{"title":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('VALIDATION_FAILED');

    const bounds = await call('POST', '/api/v1/coursings', {
      key: admin(),
      body: { locationId: location(), title: 'Late', order: 101 },
    });
    expect(bounds.status).toBe(400);
    expect(bounds.body.error.details).toEqual([{ path: '/order', message: expect.stringContaining('100') }]);
    expect(
      (
        await call('POST', '/api/v1/coursings', {
          key: admin(),
          body: { locationId: location(), title: 'Early', order: -1 },
        })
      ).status,
    ).toBe(400);
  });

  it('answers 400, creating nothing, for an order DynamoDB cannot store (5e-324 lies within 0-100; the fuzz found a 500)', async () => {
    for (const order of ['5e-324', '1e-131']) {
      const out = await call('POST', '/api/v1/coursings', {
        key: admin(),
        rawBody: `{"locationId":${location()},"title":"Tiny","order":${order}}`,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(out.status, order).toBe(400);
      expect(out.body.error.details).toEqual([{ path: '/order', message: expect.stringContaining('1e-130') }]);
    }
    const list = await call('GET', `/api/v1/coursings?locationId=${location()}&limit=100`, { key: admin() });
    expect(list.body.data.filter((c: { title: string }) => c.title === 'Tiny')).toEqual([]);
    const smallest = await call('POST', '/api/v1/coursings', {
      key: admin(),
      rawBody: `{"locationId":${location()},"title":"Smallest","order":1e-130}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(smallest.status).toBe(200);
    expect(smallest.body.data.order).toBe(1e-130);
  });

  it('answers 400 for a malformed id, 404 for an unknown one', async () => {
    expect((await call('PUT', '/api/v1/coursings/not-a-uuid', { key: admin(), body: { title: 'x' } })).status).toBe(
      400,
    );
    const out = await call('PUT', '/api/v1/coursings/3f1d2c4b-5a6e-4f70-8a9b-0c1d2e3f4a5b', {
      key: admin(),
      body: { title: 'x' },
    });
    expect(out.status).toBe(404);
    expect(out.body.error.code).toBe('NOT_FOUND');
  });

  it("hides another company's coursing (404) and location (404)", async () => {
    const theirs = await call('POST', '/api/v1/coursings', {
      key: company(1).keys.admin,
      body: { locationId: company(1).locations[0]!.locationId, title: 'Theirs', order: 1 },
    });
    expect(theirs.status).toBe(200);
    const out = await call('PUT', `/api/v1/coursings/${theirs.body.data.id}`, {
      key: admin(),
      body: { title: 'Mine now' },
    });
    expect(out.status).toBe(404);
    const list = await call('GET', `/api/v1/coursings?limit=100`, { key: admin() });
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(theirs.body.data.id);
    const foreignLocation = await call('POST', '/api/v1/coursings', {
      key: admin(),
      body: { locationId: company(1).locations[0]!.locationId, title: 'x', order: 1 },
    });
    expect(foreignLocation.status).toBe(404);
  });

  it('answers unknown paths 404 and wrong methods 405, in the envelope', async () => {
    const missing = await call('GET', '/api/v1/nothing-here', { key: admin() });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      status: 'error',
      error: { code: 'NOT_FOUND' },
      meta: { requestId: expect.any(String) },
    });
    const wrongMethod = await call('DELETE', '/api/v1/coursings', { key: admin() });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
  });

  it('puts the three rate-limit headers on every answer; Remaining drops by one per request', async () => {
    const started = Date.now();
    // The window is the clock hour: five answers the hour cut in two are asked again with a new key.
    const { answers } = await inOneRateWindow(async () => {
      const key = await testKey(own.companyId, {
        permissions: ['coursings.read', 'coursings.create', 'coursings.update'],
        tier: 'premium',
      });
      return {
        answers: [
          await call('GET', '/api/v1/coursings', { key }),
          await call('POST', '/api/v1/coursings', { key, body: { locationId: location(), title: 'x', order: 500 } }),
          await call('PUT', '/api/v1/coursings/not-a-uuid', { key, body: {} }),
          await call('GET', '/api/v1/nope', { key }),
          await call('GET', '/api/v1/coursings', { key }),
        ],
      };
    });
    const remaining = answers.map((a) => Number(rateHeaders(a.headers).remaining));
    for (let i = 1; i < remaining.length; i++) expect(remaining[i]).toBe(remaining[i - 1]! - 1);
    for (const a of answers) {
      const h = rateHeaders(a.headers);
      expect(h.limit).toBe('10000');
      expect(Number(h.reset) % 3600).toBe(0);
      expect(Number(h.reset)).toBeGreaterThan(started / 1000); // the end of a window that held a moment after `started`
    }
    expect(rateHeaders((await call('GET', '/live')).headers).limit).toBe('1000');
    expect(rateHeaders((await call('GET', '/api/v1/coursings')).headers).limit).toBe('1000');
  });
});

describe('location-limited keys on coursings', () => {
  it('may create and list at their locations only', async () => {
    const [here, there] = locations;
    const key = await testKey(own.companyId, {
      permissions: ['coursings.read', 'coursings.create', 'coursings.update'],
      locationIds: [here!],
    });
    const created = await call('POST', '/api/v1/coursings', {
      key,
      body: { locationId: here, title: 'Local', order: 3 },
    });
    expect(created.status).toBe(200);
    expect(
      (await call('POST', '/api/v1/coursings', { key, body: { locationId: there, title: 'Elsewhere', order: 3 } }))
        .status,
    ).toBe(403);

    // Without a locationId the key's only location is used; another location is refused.
    const listed = await call('GET', '/api/v1/coursings?limit=100', { key });
    expect(listed.status).toBe(200);
    expect(new Set(listed.body.data.map((c: { locationId: number }) => c.locationId))).toEqual(new Set([here]));
    expect((await call('GET', `/api/v1/coursings?locationId=${there}`, { key })).status).toBe(403);
    expect((await call('GET', '/api/v1/coursings', { key, headers: { 'X-Location-Id': String(there) } })).status).toBe(
      403,
    );

    // A coursing at another location cannot be changed by this key.
    const elsewhere = await call('POST', '/api/v1/coursings', {
      key: admin(),
      body: { locationId: there, title: 'Theirs', order: 4 },
    });
    expect(
      (await call('PUT', `/api/v1/coursings/${elsewhere.body.data.id}`, { key, body: { title: 'x' } })).status,
    ).toBe(403);
  });

  it('must name a location when limited to several', async () => {
    const key = await testKey(own.companyId, { permissions: ['coursings.read'], locationIds: locations });
    expect((await call('GET', '/api/v1/coursings', { key })).status).toBe(403);
    expect((await call('GET', `/api/v1/coursings?locationId=${locations[1]}`, { key })).status).toBe(200);
  });
});
