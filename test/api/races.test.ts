/**
 * Races to the end state (docs/testing.md): two writes fired at once over HTTP, round after round, then
 * everything read back. Whatever the timing, the end state must be the one that exactly one serial
 * order of the requests that succeeded implies: the loser answers 409 (or 404) in the error
 * envelope and leaves nothing behind (no event, hold, claim, order, item or version step), and
 * the winner's answer is what a read shows afterwards. Which request wins is up to the timing: each
 * test accepts every outcome a serial order allows, checks it to the end, and fails on any other.
 */
import { describe, expect, it } from 'vitest';
import { call, type Answer } from '../support/http';
import { stageItems } from '../support/stage-data';
import { act, admin, book, bookingBody, dayAhead, getBooking, newPlace, type Place } from './bookings-helpers';
import { newLocation, useOwnCompany } from './setup-helpers';
import type { Schemas } from '../support/client';

const own = useOwnCompany('Races company');

const ROUNDS = 12;
/** A race test makes and reads back a few hundred requests: on a loaded machine that outlasts the suite's 60 s. */
const RACE_TIMEOUT_MS = 240_000;

type Call = () => Promise<Answer>;

/** Fires both requests at once; every other round sends the second one first. Answers in the order given. */
async function race(a: Call, b: Call, round: number): Promise<[Answer, Answer]> {
  if (round % 2 === 0) return Promise.all([a(), b()]);
  const [second, first] = await Promise.all([b(), a()]);
  return [first, second];
}

const won = (a: Answer) => a.status === 200;

/** A losing request: one of `statuses`, in the contract's error envelope. */
function expectLost(a: Answer, statuses: number[] = [409]): void {
  expect(statuses, JSON.stringify(a.body)).toContain(a.status);
  expect(a.body).toMatchObject({
    status: 'error',
    error: { code: a.status === 404 ? 'NOT_FOUND' : 'CONFLICT', message: expect.any(String) },
    meta: { requestId: expect.any(String) },
  });
}

/** Every event of the file's company at or after `since`, oldest first (all pages). */
async function companyEvents(since: string): Promise<Schemas['LoggedEvent'][]> {
  const events: Schemas['LoggedEvent'][] = [];
  let cursor: string | null = null;
  do {
    const out: Answer = await call(
      'GET',
      `/api/v1/events?since=${since}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      { key: admin() },
    );
    expect(out.status).toBe(200);
    events.push(...out.body.data);
    cursor = out.body.meta.pagination.nextCursor;
  } while (cursor);
  return events;
}

/** The events named `type` about `resourceId`, in log order. */
const eventsAbout = (events: Schemas['LoggedEvent'][], resourceId: string | number, type: string) =>
  events.filter((e) => e.event === type && e.resourceId === String(resourceId));

/** Whether a booking of the table at this slot is refused because the table is held (and so makes none). */
async function tableHeld(
  place: Place,
  tableId: string,
  slot: { bookingDate: string; startTime: string; endTime: string },
): Promise<boolean> {
  const out = await call('POST', '/api/v1/bookings', {
    key: admin(),
    body: bookingBody(place, { ...slot, tableIds: [tableId] }),
  });
  if (out.status === 200) return false;
  expectLost(out);
  expect(out.body.error.message).toMatch(/already booked/);
  return true;
}

/** The company's items of one entity (a Scan of the stage: after the races, never during them). */
const itemsOf = (items: Record<string, unknown>[], entity: string) =>
  items.filter((i) => i.entity === entity && i.companyId === own().companyId);

/**
 * Runs the rounds one after another, then reads what they left: the company's events since the
 * first round began, and the stage's items.
 */
async function raceRounds<T>(round: (r: number) => Promise<T>) {
  const since = new Date().toISOString();
  const rounds: T[] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(r));
  return { rounds, events: await companyEvents(since), items: await stageItems() };
}

/** How the rounds of a race ended, as a line in the test output (which outcomes the timing gave). */
function tally(name: string, outcomes: string[]): void {
  const counts = outcomes.reduce<Record<string, number>>((all, o) => ({ ...all, [o]: (all[o] ?? 0) + 1 }), {});
  console.info(`${name}: ${JSON.stringify(counts)}`);
}

describe('cancel vs seat of one booking', () => {
  it(
    'ends seated, cancelled, or seated then cancelled; the loser leaves no tab, claim, hold or event',
    async () => {
      // A table per round: a seated party keeps its table claimed.
      const place = await newPlace({}, ROUNDS);
      const { rounds, events, items } = await raceRounds(async (r) => {
        const table = place.tables[r]!;
        const b = await book(place, { tableIds: [table.id] });
        const [seat, cancel] = await race(
          () => act(b.id, 'seat', {}),
          () => act(b.id, 'cancel', { reason: 'Race' }),
          r,
        );
        return { b, table, seat, cancel };
      });
      const outcomes: string[] = [];
      for (const { b, table, seat, cancel } of rounds) {
        const after = await getBooking(b.id);
        const seated = eventsAbout(events, b.id, 'booking.seated');
        const cancelled = eventsAbout(events, b.id, 'booking.cancelled');
        const claims = itemsOf(items, 'OPEN_TAB').filter((i) => i.tableId === table.id);
        const tab = itemsOf(items, 'TAB').find((i) => i.id === b.tab.id);
        const slot = { bookingDate: b.bookingDate, startTime: b.startTime, endTime: b.endTime };
        if (won(seat) && won(cancel)) {
          // Only seat → cancel is a serial order in which both succeed (a cancelled booking cannot be seated).
          outcomes.push('seat, then cancel');
          // Cancel closes only a pre-arrival tab: the seated party's open tab stays open (the bill is
          // still owed) and keeps its table claimed; the answer says so. The booking's hold is released.
          expect(seat.body.data).toMatchObject({ status: 'seated', version: b.version + 1 });
          const { tabWarning, ...cancelledAnswer } = cancel.body.data;
          expect(cancelledAnswer).toMatchObject({
            status: 'cancelled',
            version: b.version + 2,
            tab: { id: b.tab.id, status: 'open' },
          });
          expect(tabWarning).toContain(b.tab.id);
          expect(after).toEqual(cancelledAnswer);
          expect([seated.length, cancelled.length]).toEqual([1, 1]);
          expect(events.indexOf(seated[0]!)).toBeLessThan(events.indexOf(cancelled[0]!));
          expect(claims).toEqual([expect.objectContaining({ bookingId: b.id, tabId: b.tab.id })]);
          expect(tab).toMatchObject({ status: 'open', openedAt: expect.any(String), closedAt: null });
          expect(await tableHeld(place, table.id, slot)).toBe(false);
        } else if (won(seat)) {
          outcomes.push('seat');
          expectLost(cancel);
          expect(after).toEqual(seat.body.data);
          expect(after).toMatchObject({
            status: 'seated',
            version: b.version + 1,
            tab: { id: b.tab.id, status: 'open' },
          });
          expect([seated.length, cancelled.length]).toEqual([1, 0]);
          expect(claims).toEqual([expect.objectContaining({ bookingId: b.id, tabId: b.tab.id })]);
          expect(tab).toMatchObject({ status: 'open', closedAt: null });
          expect(await tableHeld(place, table.id, slot)).toBe(true);
        } else if (won(cancel)) {
          outcomes.push('cancel');
          expectLost(seat);
          expect(after).toEqual(cancel.body.data);
          expect(after).toMatchObject({
            status: 'cancelled',
            version: b.version + 1,
            seatedAt: null,
            tab: { id: b.tab.id, status: 'closed' },
          });
          expect([seated.length, cancelled.length]).toEqual([0, 1]);
          expect(claims).toEqual([]);
          expect(tab).toMatchObject({ status: 'closed', openedAt: null });
          expect(await tableHeld(place, table.id, slot)).toBe(false);
        } else {
          // Both refused as concurrent: as if neither was sent.
          outcomes.push('neither');
          expectLost(seat);
          expectLost(cancel);
          expect(after).toEqual(b);
          expect([seated.length, cancelled.length]).toEqual([0, 0]);
          expect(claims).toEqual([]);
          expect(tab).toMatchObject({ status: 'pre_arrival', version: 1 });
          expect(await tableHeld(place, table.id, slot)).toBe(true);
        }
      }
      tally('cancel vs seat', outcomes);
    },
    RACE_TIMEOUT_MS,
  );
});

describe('unseat vs a new order on the seated booking', () => {
  it(
    'either the order stands on the open tab (unseat refused) or the booking is unseated and the tab has no order',
    async () => {
      const place = await newPlace({}, ROUNDS);
      const { rounds, events, items } = await raceRounds(async (r) => {
        const table = place.tables[r]!;
        const b = await book(place, { tableIds: [table.id] });
        const seatAnswer = await act(b.id, 'seat', {});
        expect(seatAnswer.status).toBe(200);
        const seated = seatAnswer.body.data;
        const [unseat, order] = await race(
          () => act(b.id, 'unseat', { reason: 'Race' }),
          () =>
            call('POST', `/api/v1/tabs/${seated.tab.id}/orders`, {
              key: admin(),
              body: { items: [{ name: 'Soup', price: 900, quantity: 1 }] },
            }),
          r,
        );
        return { seated, table, unseat, order };
      });
      const outcomes: string[] = [];
      for (const { seated, table, unseat, order } of rounds) {
        const after = await getBooking(seated.id);
        const listed = await call('GET', `/api/v1/tabs/${seated.tab.id}/orders?limit=100`, { key: admin() });
        expect(listed.status).toBe(200);
        const unseated = eventsAbout(events, seated.id, 'booking.unseated');
        const ordered = events.filter((e) => e.event === 'order.created' && e.data.tabId === seated.tab.id);
        const claims = itemsOf(items, 'OPEN_TAB').filter((i) => i.tableId === table.id);
        const tab = itemsOf(items, 'TAB').find((i) => i.id === seated.tab.id);
        // No serial order lets both succeed: an order makes unseating refuse, and unseating closes the tab to orders.
        expect(won(unseat) && won(order)).toBe(false);
        if (won(order)) {
          outcomes.push('order');
          expectLost(unseat);
          expect(after).toEqual(seated);
          expect(listed.body.data).toEqual([order.body.data]);
          expect(ordered.map((e) => e.resourceId)).toEqual([order.body.data.id]);
          expect(unseated).toEqual([]);
          expect(claims).toEqual([expect.objectContaining({ bookingId: seated.id, tabId: seated.tab.id })]);
          expect(tab).toMatchObject({ status: 'open', orderCount: 1 });
        } else if (won(unseat)) {
          outcomes.push('unseat');
          expectLost(order);
          expect(after).toEqual(unseat.body.data);
          expect(after).toMatchObject({
            status: 'confirmed',
            version: seated.version + 1,
            seatedAt: null,
            tab: { id: seated.tab.id, status: 'pre_arrival' },
          });
          expect(listed.body.data).toEqual([]);
          expect(ordered).toEqual([]);
          expect(unseated).toHaveLength(1);
          expect(claims).toEqual([]);
          expect(tab).toMatchObject({ status: 'pre_arrival', orderCount: 0 });
        } else {
          outcomes.push('neither');
          expectLost(unseat);
          expectLost(order);
          expect(after).toEqual(seated);
          expect(listed.body.data).toEqual([]);
          expect([ordered.length, unseated.length]).toEqual([0, 0]);
          expect(claims).toHaveLength(1);
          expect(tab).toMatchObject({ status: 'open', orderCount: 0 });
        }
      }
      tally('unseat vs order', outcomes);
    },
    RACE_TIMEOUT_MS,
  );
});

describe('two PATCHes of one booking', () => {
  /** The slot of a booking, as a hold probe names it. */
  const slotOf = (b: Schemas['Booking']) => ({
    bookingDate: b.bookingDate,
    startTime: b.startTime,
    endTime: b.endTime,
  });

  it(
    'ends as one of them applied, or both one after the other; only the final tables are held',
    async () => {
      const place = await newPlace({}, 3);
      const [t1, t2, t3] = place.tables.map((t) => t.id) as [string, string, string];
      const { rounds, events } = await raceRounds(async (r) => {
        // Each round on a day of its own, so its holds meet no other round's.
        const b = await book(place, { bookingDate: dayAhead(20 + r), tableIds: [t1] });
        // Even rounds: two table moves; odd rounds: a new time against a table move (both can apply).
        const changes: { tableIds?: string[]; startTime?: string; endTime?: string }[] =
          r % 2 === 0
            ? [{ tableIds: [t2] }, { tableIds: [t3] }]
            : [{ startTime: '16:00', endTime: '18:00' }, { tableIds: [t2] }];
        const patch = (body: object) => () => call('PATCH', `/api/v1/bookings/${b.id}`, { key: admin(), body });
        const answers = await race(patch(changes[0]!), patch(changes[1]!), r);
        return { b, changes, answers };
      });
      const outcomes: string[] = [];
      for (const { b, changes, answers } of rounds) {
        const after = await getBooking(b.id);
        answers.filter((a) => !won(a)).forEach((a) => expectLost(a));
        // The winners in the order they were serialized: each saw the booking its predecessor left.
        const winners = answers
          .map((answer, i) => ({ answer, change: changes[i]! }))
          .filter((w) => won(w.answer))
          .sort((x, y) => x.answer.body.data.version - y.answer.body.data.version);
        outcomes.push(
          winners.length === 2
            ? 'both'
            : winners.length === 1
              ? `${changes.indexOf(winners[0]!.change) === 0 ? 'first' : 'second'}`
              : 'neither',
        );
        winners.forEach((w, i) => expect(w.answer.body.data.version).toBe(b.version + i + 1));
        let expected: Record<string, unknown> = b;
        for (const { change } of winners)
          expected = { ...expected, ...change, ...(change.tableIds ? { tableId: change.tableIds[0] } : {}) };
        expect(after).toEqual(winners.at(-1)?.answer.body.data ?? b);
        expect(after).toMatchObject({
          ...expected,
          version: b.version + winners.length,
          tab: expect.anything(),
          tabs: expect.anything(),
          updatedAt: expect.any(String),
          endsAt: expect.any(String),
          startsAt: expect.any(String),
        });
        const updated = eventsAbout(events, b.id, 'booking.updated');
        expect(updated.map((e) => e.data.version)).toEqual(winners.map((w) => w.answer.body.data.version));
        updated.forEach((e, i) =>
          expect(Object.keys(e.changes!)).toEqual(expect.arrayContaining(Object.keys(winners[i]!.change))),
        );
        // Held: the final tables at the final time, and nothing else (a probe per table at that time,
        // and at the old time when it moved).
        for (const table of [t1, t2, t3])
          expect(await tableHeld(place, table, slotOf(after)), `table ${table}`).toBe(after.tableIds.includes(table));
        if (after.startTime !== b.startTime)
          for (const table of after.tableIds) expect(await tableHeld(place, table, slotOf(b))).toBe(false);
      }
      tally('two PATCHes', outcomes);
    },
    RACE_TIMEOUT_MS,
  );
});

describe('deleting a location vs creating a table in it', () => {
  it(
    'either the table stands in the location (delete refused) or both are gone: never a table in a deleted location',
    async () => {
      const { rounds, events, items } = await raceRounds(async (r) => {
        const location = await newLocation(`Race ${r}`);
        const [remove, create] = await race(
          () => call('DELETE', `/api/v1/locations/${location.id}`, { key: admin() }),
          () =>
            call('POST', `/api/v1/locations/${location.id}/tables`, {
              key: admin(),
              body: { name: 'R1', minCapacity: 1, maxCapacity: 4 },
            }),
          r,
        );
        return { location, remove, create };
      });
      const outcomes: string[] = [];
      const pad = (id: number) => String(id).padStart(12, '0');
      for (const { location, remove, create } of rounds) {
        const read = await call('GET', `/api/v1/locations/${location.id}`, { key: admin() });
        const tables = await call('GET', `/api/v1/locations/${location.id}/tables?limit=100`, { key: admin() });
        const deleted = eventsAbout(events, location.id, 'location.deleted');
        const created = events.filter((e) => e.event === 'table.created' && e.data.locationId === location.id);
        const stored = items.filter(
          (i) =>
            i.companyId === own().companyId &&
            (i.entity === 'TABLE' || i.entity === 'TABLENAME') &&
            i.locationId === location.id,
        );
        const counter = items.find(
          (i) => i.pk === `C#${own().companyId}` && i.sk === `COUNT#TABLE#L#${pad(location.id)}`,
        );
        // Create → delete refuses (the location has a table); delete → create answers 404.
        expect(won(remove) && won(create), 'a table was made in a deleted location').toBe(false);
        if (won(create)) {
          outcomes.push('table');
          expectLost(remove);
          expect(read.body.data).toEqual(location);
          expect(tables.body.data).toEqual([create.body.data]);
          expect(tables.body.meta.pagination.total).toBe(1);
          expect(
            (await call('GET', `/api/v1/locations/${location.id}/tables/${create.body.data.id}`, { key: admin() })).body
              .data,
          ).toEqual(create.body.data);
          expect(created.map((e) => e.resourceId)).toEqual([create.body.data.id]);
          expect(deleted).toEqual([]);
          expect(stored).toHaveLength(2);
          expect(counter).toMatchObject({ n: 1 });
        } else if (won(remove)) {
          outcomes.push('delete');
          expectLost(create, [404, 409]);
          expect(remove.body.data).toEqual(location);
          expect(read.status).toBe(404);
          expect(tables.status).toBe(404);
          expect(deleted).toHaveLength(1);
          expect(created).toEqual([]);
          expect(stored).toEqual([]);
          expect(counter).toBeUndefined();
        } else {
          outcomes.push('neither');
          expectLost(remove);
          expectLost(create);
          expect(read.body.data).toEqual(location);
          expect(tables.body.data).toEqual([]);
          expect([created.length, deleted.length, stored.length]).toEqual([0, 0, 0]);
        }
      }
      // And nowhere in the company a table whose location is gone.
      const locationIds = new Set(itemsOf(items, 'LOCATION').map((l) => l.id));
      expect(itemsOf(items, 'TABLE').filter((t) => !locationIds.has(t.locationId))).toEqual([]);
      tally('delete location vs create table', outcomes);
    },
    RACE_TIMEOUT_MS,
  );
});
