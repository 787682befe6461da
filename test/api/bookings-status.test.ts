/**
 * The booking state machine over HTTP (docs/bookings.md, “States”): every allowed transition with
 * its event, every other one refused with 409 and nothing changed; cancel (by id and by code) and lock.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newClientAddress } from '../support/http';
import { seededLocation } from './setup-helpers';
import {
  act,
  admin,
  book,
  dayAhead,
  every,
  eventsOf,
  expectRefused,
  getBooking,
  keyWith,
  newPlace,
  theirAdmin,
  theirLocation,
  unknownUuid,
  type Place,
} from './bookings-helpers';
import type { Schemas } from '../support/client';

type Status = 'pending' | 'confirmed' | 'checked_in' | 'seated' | 'completed' | 'cancelled' | 'no_show';
type Op = 'confirm' | 'check-in' | 'seat' | 'unseat' | 'complete' | 'no-show' | 'cancel';

/** The body each operation takes (cancel, seat and unseat take one). */
const bodyOf: Partial<Record<Op, unknown>> = { cancel: {}, seat: {}, unseat: { reason: 'Wrong party' } };
const run = (id: string, op: Op, key = admin()) => act(id, op, bodyOf[op], key);

/** The operations that lead to each status from a new booking. */
const pathTo: Record<Status, Op[]> = {
  pending: [],
  confirmed: ['confirm'],
  checked_in: ['confirm', 'check-in'],
  seated: ['confirm', 'seat'],
  completed: ['confirm', 'seat', 'complete'],
  cancelled: ['cancel'],
  no_show: ['confirm', 'no-show'],
};

let place: Place;
beforeAll(async () => {
  // No tables: its bookings are taken without one (many at the same time), as the transitions need no table;
  // booking hours that hold 19:00 every day, as a booking without tables is held to them.
  place = await newPlace({ confirmationMode: 'request_based', operatingHours: every('11:00', '23:00') }, 0);
});

/** A new booking (pending, no table) moved to `status` over the API. */
async function bookingIn(status: Status): Promise<Schemas['Booking']> {
  const b = await book(place, { tableIds: [] });
  for (const op of pathTo[status]) expect((await run(b.id, op)).status, `${op} towards ${status}`).toBe(200);
  const now = await getBooking(b.id);
  expect(now.status).toBe(status);
  return now;
}

describe('every transition of the booking state machine', () => {
  const allowed: [Status, Op, Status, string][] = [
    ['pending', 'confirm', 'confirmed', 'booking.confirmed'],
    ['confirmed', 'check-in', 'checked_in', 'booking.updated'],
    ['confirmed', 'seat', 'seated', 'booking.seated'],
    ['checked_in', 'seat', 'seated', 'booking.seated'],
    ['seated', 'complete', 'completed', 'booking.completed'],
    ['confirmed', 'no-show', 'no_show', 'booking.no-show'],
    ['checked_in', 'no-show', 'no_show', 'booking.no-show'],
    ...(['pending', 'confirmed', 'checked_in', 'seated', 'completed', 'no_show'] as Status[]).map(
      (s): [Status, Op, Status, string] => [s, 'cancel', 'cancelled', 'booking.cancelled'],
    ),
  ];

  it.each(allowed)('%s --%s--> %s, recording %s with the full booking', async (from, op, to, event) => {
    const before = await bookingIn(from);
    const since = new Date().toISOString();
    const out = await run(before.id, op);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    // Cancelling a seated booking also says that its open tab stays open (see 'cancel' below).
    const { tabWarning, ...answer } = out.body.data;
    expect(tabWarning === undefined).toBe(!(op === 'cancel' && from === 'seated'));
    expect(answer).toMatchObject({ id: before.id, status: to, version: before.version + 1 });
    expect(await getBooking(before.id)).toEqual(answer);
    const [recorded] = await eventsOf(event, before.id, since);
    expect(recorded!.data).toMatchObject({ ...answer, ...(op === 'seat' ? { tabId: answer.tab.id } : {}) });
    if (op === 'check-in') expect(recorded!.changes).toEqual({ status: 'checked_in' });
  });

  it.each(['confirmed', 'checked_in'] as Status[])(
    'seated --unseat--> %s (the status before seating)',
    async (prior) => {
      const b = await bookingIn(prior);
      expect((await run(b.id, 'seat')).status).toBe(200);
      const since = new Date().toISOString();
      const out = await run(b.id, 'unseat');
      expect(out.body.data).toMatchObject({ status: prior, statusBeforeSeating: null, tab: { status: 'pre_arrival' } });
      const [event] = await eventsOf('booking.unseated', b.id, since);
      expect(event!.data).toMatchObject({ status: prior, reason: 'Wrong party', reversedDispatches: [] });
    },
  );

  it('answers a cancel of a cancelled booking with 200 and changes nothing', async () => {
    const b = await bookingIn('cancelled');
    const since = new Date().toISOString();
    const again = await run(b.id, 'cancel');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(b);
    expect(await getBooking(b.id)).toEqual(b);
    expect(await eventsOf('booking.cancelled', b.id, since)).toEqual([]);
  });

  const statuses: Status[] = ['pending', 'confirmed', 'checked_in', 'seated', 'completed', 'cancelled', 'no_show'];
  const ops: Op[] = ['confirm', 'check-in', 'seat', 'unseat', 'complete', 'no-show'];
  const legal = new Set([...allowed.map(([from, op]) => `${from}/${op}`), 'seated/unseat']);
  const illegal = statuses.map((s) => [s, ops.filter((op) => !legal.has(`${s}/${op}`))] as const);

  it('has many illegal transitions to check', () => {
    expect(illegal.flatMap(([, o]) => o).length).toBeGreaterThanOrEqual(30);
  });

  it.each(illegal)(
    'refuses every illegal operation on a %s booking with 409 and changes nothing',
    async (status, refused) => {
      const b = await bookingIn(status);
      for (const op of refused) expectRefused(await run(b.id, op), 409, 'CONFLICT');
      expect(await getBooking(b.id)).toEqual(b);
    },
  );
});

describe('cancel', () => {
  it('closes the pre-arrival tab by default, keeps the reason, frees the table and counts in the guest history', async () => {
    const p = await newPlace();
    const guestOut = await call('POST', '/api/v1/users/guests', {
      key: admin(),
      body: { name: 'Cancel Guest', email: `cancel.${Date.now()}@example.com` },
    });
    const guest = guestOut.body.data;
    const b = await book(p, { primaryUserId: guest.id, guestName: undefined });
    const out = await act(b.id, 'cancel', { reason: 'Guest is ill' });
    expect(out.body.data).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'Guest is ill',
      cancelledAt: expect.any(String),
      tab: { status: 'closed' },
    });
    // The slot is free for another booking of the table.
    await book(p);
    const history = await call('GET', `/api/v1/users/search?q=${encodeURIComponent(guest.email)}&locationId=${p.id}`, {
      key: admin(),
    });
    expect(history.body.data[0].bookingHistory).toMatchObject({ bookingCount: 1, cancellationCount: 1 });
  });

  it('leaves the open tab of a seated booking open (the bill is still owed), its table claimed, and says so; the hold is released', async () => {
    const p = await newPlace();
    const b = await book(p, { tableIds: [p.tables[0]!.id, p.tables[1]!.id], defaultTabStrategy: 'per_resource' });
    expect((await act(b.id, 'seat', {})).status).toBe(200);
    const since = new Date().toISOString();
    const out = await act(b.id, 'cancel', { reason: 'Left without paying yet' });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const { tabWarning, ...cancelled } = out.body.data;
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      tabs: [
        { id: b.tabs[0]!.id, status: 'open' },
        { id: b.tabs[1]!.id, status: 'open' },
      ],
    });
    expect(tabWarning).toContain(b.tabs[0]!.id);
    expect(tabWarning).toContain(b.tabs[1]!.id);
    expect(tabWarning).toMatch(/stay open: the bill is still owed/);
    expect(await getBooking(b.id)).toEqual(cancelled);
    const [event] = await eventsOf('booking.cancelled', b.id, since);
    expect((event!.data as { tabs: { status: string }[] }).tabs.map((t) => t.status)).toEqual(['open', 'open']);
    // The tab still claims the table: nobody else is seated there; the hold is gone: a booking of that slot is taken.
    const next = await book(p);
    expectRefused(await act(next.id, 'seat', {}), 409, 'CONFLICT');
    expect((await getBooking(next.id)).status).toBe('confirmed');
  });

  it('keeps the tab with closeTab: false', async () => {
    const b = await book(await newPlace({}, 1));
    const out = await act(b.id, 'cancel', { closeTab: false });
    expect(out.body.data).toMatchObject({ status: 'cancelled', tab: { status: 'pre_arrival' } });
  });

  it("validates the body (400) and needs bookings.manage (403), 404 for another company's booking", async () => {
    const b = await book(await newPlace({}, 1));
    expectRefused(await act(b.id, 'cancel', { reason: '' }), 400, 'VALIDATION_FAILED', '/reason');
    expectRefused(await act(b.id, 'cancel', { closeTab: 'yes' }), 400, 'VALIDATION_FAILED', '/closeTab');
    expectRefused(await act(b.id, 'cancel', { why: 'x' }), 400, 'VALIDATION_FAILED', '/why');
    expectRefused(
      await act(b.id, 'cancel', {}, await keyWith(['bookings.read', 'bookings.update', 'bookings.create'])),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await act(b.id, 'cancel', {}, await keyWith(['bookings.manage'], [seededLocation(0).locationId])),
      403,
      'FORBIDDEN',
    );
    expectRefused(await act(unknownUuid, 'cancel', {}), 404, 'NOT_FOUND');
    const theirs = await call('POST', '/api/v1/bookings', {
      key: theirAdmin(),
      body: {
        locationId: theirLocation(),
        bookingDate: dayAhead(10),
        startTime: '15:00',
        guestCount: 2,
        guestName: 'Theirs',
      },
    });
    expectRefused(await act(theirs.body.data.id, 'cancel', {}), 404, 'NOT_FOUND');
    expect((await call('GET', `/api/v1/bookings/${theirs.body.data.id}`, { key: theirAdmin() })).body.data.status).toBe(
      'confirmed',
    );
    expect((await getBooking(b.id)).status).toBe('confirmed');
  });
});

describe('state operations: permissions and tenancy', () => {
  it.each(['confirm', 'check-in', 'complete', 'no-show', 'seat', 'unseat', 'split-tabs'])(
    '%s needs bookings.manage (403), hides other companies (404), checks the id (400)',
    async (op) => {
      const b = await book(place, { tableIds: [] });
      const body = op === 'seat' ? {} : op === 'unseat' ? { reason: 'x' } : undefined;
      expectRefused(
        await act(b.id, op, body, await keyWith(['bookings.read', 'bookings.update', 'bookings.create'])),
        403,
        'FORBIDDEN',
      );
      expectRefused(
        await act(b.id, op, body, await keyWith(['bookings.manage'], [seededLocation(0).locationId])),
        403,
        'FORBIDDEN',
      );
      expectRefused(await act(b.id, op, body, theirAdmin()), 404, 'NOT_FOUND');
      expectRefused(await act('not-a-uuid', op, body), 400, 'VALIDATION_FAILED');
      expect(await getBooking(b.id)).toEqual(b);
    },
  );
});

describe('cancel by confirmation code (public)', () => {
  /** Failed lookups count per client (docs/access.md, “Codes”): the unknown and malformed codes come from an address of their own. */
  const byCode = (code: string, from?: string) => call('POST', `/api/v1/bookings/by-code/${code}/cancel`, { from });

  it('cancels without a credential and answers what a guest may see', async () => {
    const b = await book(await newPlace({}, 1), { internalNotes: 'secret' });
    const out = await byCode(b.confirmationCode);
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({
      id: b.id,
      confirmationCode: b.confirmationCode,
      locationId: b.locationId,
      status: 'cancelled',
      bookingDate: b.bookingDate,
      startTime: b.startTime,
      endTime: b.endTime,
      timezone: b.timezone,
      startsAt: b.startsAt,
      endsAt: b.endsAt,
      guestCount: b.guestCount,
      guestName: b.guestName,
      occasion: b.occasion,
      specialRequests: b.specialRequests,
      cancelledAt: expect.any(String),
    });
    expect(await getBooking(b.id)).toMatchObject({
      status: 'cancelled',
      cancellationReason: 'Cancelled by the guest',
      tab: { status: 'closed' },
    });
    expect((await byCode(b.confirmationCode)).status).toBe(200);
  });

  it('refuses inside the cancellation policy window with 422, changing nothing', async () => {
    const p = await newPlace({ cancellationPolicyHours: 48 });
    const b = await book(p, { bookingDate: dayAhead(1) });
    expectRefused(await byCode(b.confirmationCode), 422, 'UNPROCESSABLE', '/settings/cancellationPolicyHours');
    expect(await getBooking(b.id)).toEqual(b);
    const later = await book(p, { bookingDate: dayAhead(5) });
    expect((await byCode(later.confirmationCode)).status).toBe(200);
  });

  it('answers 404 for an unknown code and 400 for a malformed one', async () => {
    const from = newClientAddress();
    expectRefused(await byCode('ZZZZZZZZ', from), 404, 'NOT_FOUND');
    expectRefused(await byCode('abc', from), 400, 'VALIDATION_FAILED');
  });
});

describe('lock', () => {
  const lock = (id: string, body: unknown, key = admin()) =>
    call('PATCH', `/api/v1/bookings/${id}/lock`, { key, body });

  it('pins and frees the booking, recording booking.updated with changes.locked; the same value writes nothing', async () => {
    const b = await book(await newPlace({}, 1));
    const since = new Date().toISOString();
    const locked = await lock(b.id, { locked: true });
    expect(locked.body.data).toMatchObject({ locked: true, version: 2 });
    expect((await lock(b.id, { locked: true })).body.data.version).toBe(2);
    expect((await lock(b.id, { locked: false })).body.data).toMatchObject({ locked: false, version: 3 });
    const events = await eventsOf('booking.updated', b.id, since);
    expect(events.map((e) => e.changes)).toEqual([{ locked: true }, { locked: false }]);
  });

  it('needs locked (400), bookings.manage (403), and hides other companies (404)', async () => {
    const b = await book(await newPlace({}, 1));
    expectRefused(await lock(b.id, {}), 400, 'VALIDATION_FAILED', '/locked');
    expectRefused(await lock(b.id, { locked: 'yes' }), 400, 'VALIDATION_FAILED', '/locked');
    expectRefused(await lock(b.id, { locked: true }, await keyWith(['bookings.update'])), 403, 'FORBIDDEN');
    expectRefused(await lock(b.id, { locked: true }, theirAdmin()), 404, 'NOT_FOUND');
    expect(await getBooking(b.id)).toEqual(b);
  });
});
