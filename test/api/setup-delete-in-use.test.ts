/**
 * Deleting what bookings still use (docs/access.md, threat model, item 12, docs/setup.md "Deleting what is in use"): a
 * table or a location with active bookings or open tabs answers 409 naming them (count and the
 * first ids), changing nothing; and a booking created at the same moment as the delete never ends
 * up pointing at a deleted table or location (the guard is a condition both transactions touch).
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { act, book, bookingBody, dayAhead, every, newPlace, type Place } from './bookings-helpers';
import { admin, expectRefused, newTable, useOwnCompany } from './setup-helpers';

useOwnCompany('Delete guards test company');

const tableAt = (place: Place | number, id: string) =>
  `/api/v1/locations/${typeof place === 'number' ? place : place.id}/tables/${id}`;
const locationAt = (id: number) => `/api/v1/locations/${id}`;
const del = (path: string) => call('DELETE', path, { key: admin() });
const bookingsWith = async (query: string) =>
  (await call('GET', `/api/v1/bookings?${query}&limit=100`, { key: admin() })).body;

describe('deleting a table in use', () => {
  it('answers 409 naming how many bookings use it and the first of them by date; deletes it once none does', async () => {
    const place = await newPlace({}, 2);
    const [t1] = place.tables;
    // Bookings that no longer use the table do not count: a completed one and a cancelled one (its pre-arrival tab closed).
    const completed = await book(place, { bookingDate: dayAhead(14) });
    expect((await act(completed.id, 'seat', {})).status).toBe(200);
    expect((await act(completed.id, 'complete')).status).toBe(200);
    const cancelled = await book(place, { bookingDate: dayAhead(13) });
    expect((await act(cancelled.id, 'cancel', {})).status).toBe(200);
    const later = await book(place, { bookingDate: dayAhead(12) });
    const sooner = await book(place, { bookingDate: dayAhead(11) });
    const seated = await book(place, {
      bookingDate: dayAhead(0),
      startTime: '00:00',
      endTime: '00:30',
      seatImmediately: true,
    });
    const before = (await call('GET', tableAt(place, t1!.id), { key: admin() })).body.data;

    const out = await del(tableAt(place, t1!.id));
    expectRefused(out, 409, 'CONFLICT');
    const { message, details } = out.body.error;
    expect(message).toContain('3 bookings still use it');
    expect(message).toContain(`open tab ${seated.tab.id}`);
    expect(details.map((d: { message: string }) => d.message.slice(0, 36))).toEqual([seated.id, sooner.id, later.id]);
    expect(message).not.toContain(cancelled.id);
    expect(message).not.toContain(completed.id);
    expect((await call('GET', tableAt(place, t1!.id), { key: admin() })).body.data).toEqual(before);

    for (const b of [later, sooner]) expect((await act(b.id, 'cancel', {})).status).toBe(200);
    const still = await del(tableAt(place, t1!.id));
    expectRefused(still, 409, 'CONFLICT');
    expect(still.body.error.message).toMatch(/1 booking still uses it/);
    expect(still.body.error.details).toEqual([{ path: '/bookings/0', message: expect.stringContaining(seated.id) }]);
    expect((await act(seated.id, 'complete')).status).toBe(200);
    expect((await del(tableAt(place, t1!.id))).status).toBe(200);
    expectRefused(await call('GET', tableAt(place, t1!.id), { key: admin() }), 404, 'NOT_FOUND');
  });

  it("keeps a table whose cancelled booking's tab is still open (the bill is owed): 409 naming the booking and its tab", async () => {
    const place = await newPlace({}, 1);
    const b = await book(place, {
      bookingDate: dayAhead(0),
      startTime: '00:00',
      endTime: '00:30',
      seatImmediately: true,
    });
    const cancelled = await act(b.id, 'cancel', {});
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', tab: { status: 'open' } });
    const out = await del(tableAt(place, place.tables[0]!.id));
    expectRefused(out, 409, 'CONFLICT');
    expect(out.body.error.message).toContain(
      `${b.id} (${b.bookingDate} ${b.startTime}, cancelled, open tab ${b.tab.id})`,
    );
  });

  it('names the booking groups and the bookings together when both keep it', async () => {
    const place = await newPlace({}, 1);
    const [t1] = place.tables;
    const group = await call('POST', `/api/v1/locations/${place.id}/booking-groups`, {
      key: admin(),
      body: { name: 'Window', tableIds: [t1!.id] },
    });
    const b = await book(place);
    const out = await del(tableAt(place, t1!.id));
    expectRefused(out, 409, 'CONFLICT');
    expect(out.body.error.message).toContain(group.body.data.id);
    expect(out.body.error.message).toContain(b.id);
  });

  it('never lets a booking land on a table deleted at the same moment (10 rounds of 3 creates vs a delete)', async () => {
    const place = await newPlace({}, 0);
    for (let round = 0; round < 10; round++) {
      const table = await newTable(place.id, { name: `R${round}`, minCapacity: 1, maxCapacity: 8 });
      const dates = [0, 1, 2].map((i) => dayAhead(20 + 3 * round + i));
      const [deleted, ...created] = await Promise.all([
        del(tableAt(place, table.id)),
        ...dates.map((bookingDate) =>
          call('POST', '/api/v1/bookings', {
            key: admin(),
            body: bookingBody(place, { tableIds: [table.id], bookingDate }),
          }),
        ),
      ]);
      const made = created.filter((c) => c.status === 200).map((c) => c.body.data.id as string);
      for (const c of created) expect([200, 404, 409], JSON.stringify(c.body)).toContain(c.status);
      const tableNow = await call('GET', tableAt(place, table.id), { key: admin() });
      const onTable = (await bookingsWith(`tableId=${table.id}`)).data.map((b: { id: string }) => b.id);
      expect(onTable.sort()).toEqual([...made].sort());
      if (deleted.status === 200) {
        // The delete won: no booking was made on the table, none refers to it.
        expect(made).toEqual([]);
        expect(tableNow.status).toBe(404);
        for (const date of dates)
          expect((await bookingsWith(`locationId=${place.id}&bookingDate=${date}`)).data).toEqual([]);
      } else {
        // Refused (bookings got in first, or a concurrent change): the table is there, and a delete now names what uses it.
        expectRefused(deleted, 409, 'CONFLICT');
        expect(tableNow.status).toBe(200);
        if (made.length)
          expect((await del(tableAt(place, table.id))).body.error.message).toContain(`${made.length} booking`);
        for (const id of made) expect((await act(id, 'cancel', {})).status).toBe(200);
        expect((await del(tableAt(place, table.id))).status).toBe(200);
      }
    }
  });
});

describe('deleting a location in use', () => {
  it('answers 409 naming a booking without a table that uses it, then deletes it once the booking is cancelled', async () => {
    // Booking hours that hold 19:00 every day: a booking without tables is held to them.
    const place = await newPlace({ operatingHours: every('11:00', '23:00') }, 0);
    const b = await book(place, { tableIds: [] });
    const out = await del(locationAt(place.id));
    expectRefused(out, 409, 'CONFLICT');
    expect(out.body.error.message).toMatch(
      new RegExp(`^Location ${place.id} cannot be deleted: 1 booking still uses it`),
    );
    expect(out.body.error.details).toEqual([{ path: '/bookings/0', message: expect.stringContaining(b.id) }]);
    expect((await call('GET', locationAt(place.id), { key: admin() })).status).toBe(200);
    expect((await act(b.id, 'cancel', {})).status).toBe(200);
    expect((await del(locationAt(place.id))).status).toBe(200);
  });

  it('names its tables and the bookings on them', async () => {
    const place = await newPlace({}, 2);
    const b = await book(place);
    const out = await del(locationAt(place.id));
    expectRefused(out, 409, 'CONFLICT');
    expect(out.body.error.message).toContain('it still has tables (2): delete them');
    expect(out.body.error.message).toContain(`1 booking still uses it, active or with an open tab (${b.id}`);
  });

  it('never lets a booking land on a location deleted at the same moment (10 rounds of 3 creates vs a delete)', async () => {
    for (let round = 0; round < 10; round++) {
      const place = await newPlace({ operatingHours: every('11:00', '23:00') }, 0);
      const [deleted, ...created] = await Promise.all([
        del(locationAt(place.id)),
        ...[0, 1, 2].map(() =>
          call('POST', '/api/v1/bookings', { key: admin(), body: bookingBody(place, { tableIds: [] }) }),
        ),
      ]);
      const made = created.filter((c) => c.status === 200).map((c) => c.body.data.id as string);
      for (const c of created) expect([200, 404, 409], JSON.stringify(c.body)).toContain(c.status);
      const locationNow = await call('GET', locationAt(place.id), { key: admin() });
      if (deleted.status === 200) {
        expect(made).toEqual([]);
        expect(locationNow.status).toBe(404);
        expectRefused(await call('GET', `/api/v1/bookings?locationId=${place.id}`, { key: admin() }), 404, 'NOT_FOUND');
      } else {
        expectRefused(deleted, 409, 'CONFLICT');
        expect(locationNow.status).toBe(200);
        expect((await bookingsWith(`locationId=${place.id}`)).data.map((b: { id: string }) => b.id).sort()).toEqual(
          [...made].sort(),
        );
        if (made.length)
          expect((await del(locationAt(place.id))).body.error.message).toContain(`${made.length} booking`);
      }
    }
  });
});
