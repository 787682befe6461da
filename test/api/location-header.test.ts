/**
 * The X-Location-Id header (docs/api.md, "Credentials"): a present but malformed header is a 400 on
 * `/headers/X-Location-Id`, never ignored (ignoring it would widen the request to every location
 * the credential reaches). The file has a company of its own, so its snapshot shows that a
 * refused request wrote nothing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { belongsTo, diff, snapshot } from '../support/fuzz/state';
import { call } from '../support/http';
import { stageItems } from '../support/stage-data';
import { act, admin, book, expectRefused, newPlace } from './bookings-helpers';
import { useOwnCompany } from './setup-helpers';

const own = useOwnCompany('Location header');

/** Malformed ids: trailing text, hex, exponent, a leading zero, a sign, a list, zero, past the id range. */
const malformed = ['101abc', '0x65', '1e2', '0101', '-101', '101,102', '0', '9007199254740993'];

/** Two places of the company, each with a booking seated (so each has an open tab). */
async function twoSeatedPlaces() {
  const a = await newPlace({}, 1);
  const b = await newPlace({}, 1);
  const atA = await book(a);
  const atB = await book(b);
  expect((await act(atA.id, 'seat', {})).status).toBe(200);
  expect((await act(atB.id, 'seat', {})).status).toBe(200);
  return { a, b, atA, atB };
}

describe('a malformed X-Location-Id header', () => {
  it('is refused by close-all with 400 on /headers/X-Location-Id (nothing closed, nothing written); a well-formed one still closes that location only', async () => {
    const { b, atA, atB } = await twoSeatedPlaces();
    const mine = belongsTo(own().companyId, 'location-header');
    const before = await snapshot(mine);
    for (const value of malformed) {
      expectRefused(
        await call('POST', '/api/v1/tabs/close-all', {
          key: admin(),
          headers: { 'X-Location-Id': value, 'Idempotency-Key': `malformed-${value}` },
        }),
        400,
        'VALIDATION_FAILED',
        '/headers/X-Location-Id',
      );
    }
    expect(diff(before, await snapshot(mine))).toEqual([]);
    const tab = async (id: string) => (await stageItems()).find((i) => i.entity === 'TAB' && i.id === id);
    expect(await tab(atB.tab.id)).toMatchObject({ status: 'open' });

    const closed = await call('POST', '/api/v1/tabs/close-all', {
      key: admin(),
      headers: { 'X-Location-Id': String(b.id) },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.data).toEqual({ locationIds: [b.id], closed: 1, skipped: 0, more: false });
    expect(await tab(atB.tab.id)).toMatchObject({ status: 'closed' });
    expect(await tab(atA.tab.id)).toMatchObject({ status: 'open' });
  });

  it('is refused by a list with 400 rather than answering the whole company; a well-formed one filters', async () => {
    const a = await newPlace({}, 1);
    const b = await newPlace({}, 1);
    const atA = await book(a);
    const atB = await book(b);
    for (const value of malformed) {
      expectRefused(
        await call('GET', '/api/v1/bookings', { key: admin(), headers: { 'X-Location-Id': value } }),
        400,
        'VALIDATION_FAILED',
        '/headers/X-Location-Id',
      );
    }
    const listed = await call('GET', '/api/v1/bookings', { key: admin(), headers: { 'X-Location-Id': String(a.id) } });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const ids = (listed.body.data as { id: string }[]).map((x) => x.id);
    expect(ids).toContain(atA.id);
    expect(ids).not.toContain(atB.id);
  });
});

describe('Idempotency-Key and the location header (docs/idempotency.md)', () => {
  const closeAll = (key: string, idempotencyKey: string, location: number) =>
    call('POST', '/api/v1/tabs/close-all', {
      key,
      headers: { 'X-Location-Id': String(location), 'Idempotency-Key': idempotencyKey },
    });

  it('answers 422 to the same key with another location header: the other location is neither replayed nor closed', async () => {
    const { a, b, atA } = await twoSeatedPlaces();
    const key = randomUUID();
    const first = await closeAll(admin(), key, b.id);
    expect(first.body.data).toEqual({ locationIds: [b.id], closed: 1, skipped: 0, more: false });
    const mine = belongsTo(own().companyId, 'location-header');
    const before = await snapshot(mine);
    expectRefused(await closeAll(admin(), key, a.id), 422, 'UNPROCESSABLE', '/headers/Idempotency-Key');
    expect(diff(before, await snapshot(mine))).toEqual([]);
    const tab = async (id: string) => (await stageItems()).find((i) => i.entity === 'TAB' && i.id === id);
    expect(await tab(atA.tab.id)).toMatchObject({ status: 'open' });
    // The same request again is still the replay.
    const again = await closeAll(admin(), key, b.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('re-checks the location on a replay: a key limited since gets the 403 it would get running', async () => {
    const a = await newPlace({}, 1);
    const b = await newPlace({}, 1);
    const made = await call('POST', '/api/v1/api-keys', {
      key: admin(),
      body: { name: 'Replay limits', tier: 'standard', permissions: ['tabs.manage'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const { id, key } = made.body.data as { id: string; key: string };
    const idempotencyKey = randomUUID();
    const first = await closeAll(key, idempotencyKey, b.id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const limit = await call('PATCH', `/api/v1/api-keys/${id}`, { key: admin(), body: { locationIds: [a.id] } });
    expect(limit.status, JSON.stringify(limit.body)).toBe(200);
    const replay = await closeAll(key, idempotencyKey, b.id);
    expectRefused(replay, 403, 'FORBIDDEN');
    expect(replay.headers.get('idempotent-replayed')).toBeNull();
  });

  it('re-checks on a replay the location of a resource the path names: a key limited since gets 403, not the first answer', async () => {
    const a = await newPlace({}, 1);
    const b = await newPlace({}, 1);
    const atB = await book(b);
    const made = await call('POST', '/api/v1/api-keys', {
      key: admin(),
      body: { name: 'Replay by path', tier: 'standard', permissions: ['bookings.manage'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const { id, key } = made.body.data as { id: string; key: string };
    const cancel = (idempotencyKey: string) =>
      call('POST', `/api/v1/bookings/${atB.id}/cancel`, {
        key,
        body: {},
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    const idempotencyKey = randomUUID();
    const first = await cancel(idempotencyKey);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await cancel(idempotencyKey)).headers.get('idempotent-replayed')).toBe('true');
    const limit = await call('PATCH', `/api/v1/api-keys/${id}`, { key: admin(), body: { locationIds: [a.id] } });
    expect(limit.status, JSON.stringify(limit.body)).toBe(200);
    const replay = await cancel(idempotencyKey);
    expectRefused(replay, 403, 'FORBIDDEN');
    expect(replay.headers.get('idempotent-replayed')).toBeNull();
  });
});
