/**
 * The X-Location-Id header (docs/api.md, "Credentials"): a present but malformed header is a 400 on
 * `/headers/X-Location-Id`, never ignored (ignoring it would widen the request to every location
 * the credential reaches). The file has a company of its own, so its snapshot shows that a
 * refused request wrote nothing.
 */
import { describe, expect, it } from 'vitest';
import { belongsTo, diff, snapshot } from '../support/fuzz/state';
import { call } from '../support/http';
import { stageItems } from '../support/stage-data';
import { act, admin, book, expectRefused, newPlace } from './bookings-helpers';
import { useOwnCompany } from './setup-helpers';

const own = useOwnCompany('Location header');

/** Malformed ids: trailing text, hex, exponent, a leading zero, a sign, a list, zero, past the id range. */
const malformed = ['101abc', '0x65', '1e2', '0101', '-101', '101,102', '0', '9007199254740993'];

describe('a malformed X-Location-Id header', () => {
  it('is refused by close-all with 400 on /headers/X-Location-Id (nothing closed, nothing written); a well-formed one still closes that location only', async () => {
    const a = await newPlace({}, 1);
    const b = await newPlace({}, 1);
    const atA = await book(a);
    const atB = await book(b);
    expect((await act(atA.id, 'seat', {})).status).toBe(200);
    expect((await act(atB.id, 'seat', {})).status).toBe(200);
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
