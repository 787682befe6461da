/**
 * The waitlist against DynamoDB Local: each change is one transaction of the entry, its code
 * lookup's copy, the table days its offer holds or frees and its event; an offer's hold refuses
 * other bookings until it lapses, and a lapsed offer is expired (hold released) by the next read;
 * accepting writes the booking, its tab and its holds with the entry's change.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { bookings } from '../../shared/data/bookings';
import { db, tableName } from '../../shared/data/client';
import { sweepShard } from '../../shared/data/noShowSweep';
import { waitlist } from '../../shared/data/waitlist';
import { createBooking } from '../../shared/domain/bookings/create';
import { putBookingSettings } from '../../shared/domain/bookings/settings';
import { localDay } from '../../shared/domain/bookings/time';
import { createLocation } from '../../shared/domain/locations';
import { createTable } from '../../shared/domain/tables';
import {
  acceptWaitlistOffer,
  declineWaitlistOffer,
  getWaitlistByCode,
  getWaitlistEntry,
  joinWaitlist,
  leaveWaitlist,
  listWaitlist,
  offerWaitlistSpot,
  sweepLapsedOffers,
} from '../../shared/domain/waitlist/operations';
import { idBlock } from '../support/id-blocks';
import { companyEvents } from '../support/events';

const ids = idBlock(import.meta.url);
const companyId = ids.next();
const principal: Principal = {
  kind: 'user',
  companyId,
  permissions: [],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: `test:${companyId}`,
  internalOperator: false,
};
const zone = 'Europe/Stockholm';

/** A date `days` ahead whose local day is 24 hours long. */
function ordinaryDay(days: number): string {
  for (let d = days; ; d++) {
    const date = new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    const { startMs, endMs } = localDay(date, zone);
    if (endMs - startMs === 86_400_000) return date;
  }
}
const date = ordinaryDay(5);

async function place() {
  const location = await createLocation(
    principal,
    { name: 'Waitlist bistro', timezone: zone, operatingHours: {} },
    ids.next(),
  );
  const table = await createTable(principal, location.id, { name: 'W1', minCapacity: 1, maxCapacity: 4 });
  await putBookingSettings(principal, location.id, { bufferMinutes: 15, maxAdvanceDays: 365 });
  return { locationId: location.id, tableId: table.id };
}

const join = (locationId: number) =>
  joinWaitlist(principal, {
    locationId,
    partySize: 2,
    desiredDate: date,
    windowStart: '18:00',
    windowEnd: '21:00',
    guestName: 'Wanda Wait',
    guestEmail: 'Wanda@Example.com',
  });
const offerAt = (entryId: string, tableId: string, holdMinutes = 15) =>
  offerWaitlistSpot(principal, entryId, { tableIds: [tableId], startTime: '19:00', endTime: '21:00', holdMinutes });
const bookTable = (locationId: number, tableId: string) =>
  createBooking(principal, {
    locationId,
    bookingDate: date,
    startTime: '19:30',
    endTime: '21:00',
    guestCount: 2,
    tableIds: [tableId],
    guestName: 'Walk In',
  });

const raw = async (pk: string, sk: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk }, ConsistentRead: true }))).Item;
const tableDay = (tableId: string) => raw(`C#${companyId}#TABLE#${tableId}`, `DAY#${date}`);
const events = async (type: string, id: string) =>
  ((await companyEvents(companyId)).Items ?? [])
    .map((i) => i.payload as Record<string, unknown>)
    .filter((e) => e.event === type && e.resourceId === id);

afterEach(() => {
  vi.useRealTimers();
});

describe('joining', () => {
  it('writes the entry, its code lookup (a copy of it) and waitlist.joined', async () => {
    const { locationId } = await place();
    const entry = await join(locationId);
    expect(entry).toMatchObject({
      status: 'waiting',
      locationId,
      partySize: 2,
      guestEmail: 'wanda@example.com',
      offer: null,
      bookingId: null,
      version: 1,
    });
    expect(await waitlist.get(companyId, entry.id)).toEqual(entry);
    expect(await waitlist.findByCode(entry.code)).toEqual({ companyId, entry });
    expect(await events('waitlist.joined', entry.id)).toHaveLength(1);
  });
});

describe('an offer', () => {
  it('holds the table in its table day with the expiry: a booking at that time is refused while it holds', async () => {
    const { locationId, tableId } = await place();
    const entry = await join(locationId);
    const offered = await offerAt(entry.id, tableId);
    expect(offered.status).toBe('offered');
    const holds = (await tableDay(tableId))!.holds as Record<string, number[]>;
    expect(holds[offered.offer!.bookingId]).toEqual([
      Date.parse(offered.offer!.startsAt),
      Date.parse(offered.offer!.endsAt),
      Date.parse(offered.offer!.expiresAt),
    ]);
    await expect(bookTable(locationId, tableId)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await getWaitlistByCode(entry.code)).status).toBe('offered');
    expect(await events('waitlist.offered', entry.id)).toHaveLength(1);
  });

  it('lapses: the next read expires it (the hold released, waitlist.expired), accept is refused, the table can be booked', async () => {
    const { locationId, tableId } = await place();
    const entry = await join(locationId);
    const offered = await offerAt(entry.id, tableId, 10);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(offered.offer!.expiresAt) + 1000 });
    // A list judges the lapse without writing.
    const listed = await listWaitlist(principal, { locationId, status: 'expired', page: 1, limit: 20 });
    expect(listed.items.map((e) => [e.id, e.status])).toEqual([[entry.id, 'expired']]);
    expect((await waitlist.get(companyId, entry.id))!.status).toBe('offered');
    // A read by code writes it.
    expect((await getWaitlistByCode(entry.code)).status).toBe('expired');
    expect((await waitlist.get(companyId, entry.id))!).toMatchObject({ status: 'expired', version: 3 });
    expect(((await tableDay(tableId))!.holds as Record<string, unknown>)[offered.offer!.bookingId]).toBeUndefined();
    expect(await events('waitlist.expired', entry.id)).toHaveLength(1);
    await expect(acceptWaitlistOffer(entry.code)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('expired'),
    });
    expect((await bookTable(locationId, tableId)).status).toBe('confirmed');
    // Staff may offer an expired entry again: a new hold, under a new booking id.
    const again = await offerWaitlistSpot(principal, entry.id, {
      tableIds: [tableId],
      startTime: '17:00',
      endTime: '19:00',
    });
    expect(again).toMatchObject({ status: 'offered', version: 4 });
    expect(again.offer!.bookingId).not.toBe(offered.offer!.bookingId);
  });

  it('a lapsed hold lets a booking in even before anything expired the entry', async () => {
    const { locationId, tableId } = await place();
    const entry = await join(locationId);
    const offered = await offerAt(entry.id, tableId, 10);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(offered.offer!.expiresAt) });
    const b = await bookTable(locationId, tableId);
    const holds = (await tableDay(tableId))!.holds as Record<string, unknown>;
    expect(Object.keys(holds)).toEqual([b.id]);
    expect((await getWaitlistEntry(principal, entry.id)).status).toBe('expired');
  });
});

describe('the sweep of lapsed offers', () => {
  const sweepItem = (offer: { expiresAt: string }, entryId: string) =>
    raw(
      `SWEEP#WAITLIST#${offer.expiresAt.slice(0, 13)}#${String(sweepShard(companyId, entryId)).padStart(2, '0')}`,
      `${offer.expiresAt}#${companyId}#${entryId}`,
    );

  it('finds the offer by its sweep item once it has lapsed and expires it once: hold released, item gone, waitlist.expired', async () => {
    const { locationId, tableId } = await place();
    const entry = await join(locationId);
    const offered = await offerAt(entry.id, tableId, 1);
    expect(await sweepItem(offered.offer!, entry.id)).toMatchObject({
      entity: 'WAITLIST_OFFER_SWEEP',
      companyId,
      entryId: entry.id,
      dueAt: offered.offer!.expiresAt,
    });
    const expiresMs = Date.parse(offered.offer!.expiresAt);
    vi.useFakeTimers({ toFake: ['Date'], now: expiresMs - 1 });
    expect(await sweepLapsedOffers(expiresMs - 1)).toBe(0);
    vi.setSystemTime(expiresMs + 1000);
    const expired = await sweepLapsedOffers(expiresMs + 1000);
    expect(expired).toBeGreaterThanOrEqual(1);
    expect((await waitlist.get(companyId, entry.id))!).toMatchObject({ status: 'expired', version: 3 });
    expect(((await tableDay(tableId))!.holds as Record<string, unknown>)[offered.offer!.bookingId]).toBeUndefined();
    expect(await sweepItem(offered.offer!, entry.id)).toBeUndefined();
    expect(await events('waitlist.expired', entry.id)).toHaveLength(1);
    await sweepLapsedOffers(expiresMs + 2000);
    expect(await events('waitlist.expired', entry.id)).toHaveLength(1);
  });

  it('an accepted offer leaves no sweep item behind', async () => {
    const { locationId, tableId } = await place();
    const entry = await join(locationId);
    const offered = await offerAt(entry.id, tableId);
    await acceptWaitlistOffer(entry.code);
    expect(await sweepItem(offered.offer!, entry.id)).toBeUndefined();
  });
});

describe('accepting', () => {
  it('writes the booking with its tab and hold, the entry accepted and both events, in one transaction', async () => {
    const { locationId, tableId } = await place();
    const entry = await join(locationId);
    const offered = await offerAt(entry.id, tableId);
    const answer = await acceptWaitlistOffer(entry.code);
    const bookingId = offered.offer!.bookingId;
    expect(answer).toMatchObject({
      status: 'accepted',
      bookingId,
      booking: {
        id: bookingId,
        status: 'confirmed',
        bookingDate: date,
        startTime: '19:00',
        endTime: '21:00',
        guestCount: 2,
      },
    });
    const b = (await bookings.get(companyId, bookingId))!;
    expect(b).toMatchObject({
      tableIds: [tableId],
      guestName: 'Wanda Wait',
      guestEmail: 'wanda@example.com',
      bookingSource: 'waitlist',
      tab: { status: 'pre_arrival', tableId },
    });
    expect(await raw(`C#${companyId}`, `TAB#${b.tab.id}`)).toMatchObject({ bookingId, status: 'pre_arrival' });
    expect((await bookings.findByCode(b.confirmationCode))!.booking).toEqual(b);
    expect(((await tableDay(tableId))!.holds as Record<string, unknown>)[bookingId]).toEqual([
      Date.parse(b.startsAt),
      Date.parse(b.endsAt),
    ]);
    expect((await waitlist.findByCode(entry.code))!.entry).toMatchObject({ status: 'accepted', bookingId, version: 3 });
    expect(await events('booking.created', bookingId)).toHaveLength(1);
    expect(await events('waitlist.accepted', entry.id)).toHaveLength(1);
    // Again: the same answer, nothing more written.
    expect(await acceptWaitlistOffer(entry.code)).toMatchObject({ status: 'accepted', bookingId });
    expect(await events('booking.created', bookingId)).toHaveLength(1);
  });
});

describe('declining and leaving', () => {
  const answers = [
    { name: 'decline', answer: declineWaitlistOffer, status: 'declined', event: 'waitlist.declined' },
    { name: 'leave', answer: leaveWaitlist, status: 'left', event: 'waitlist.left' },
  ] as const;

  it.each(answers)(
    '$name while offered frees the table at once; answering again changes nothing',
    async ({ answer, status, event }) => {
      const { locationId, tableId } = await place();
      const entry = await join(locationId);
      await offerAt(entry.id, tableId);
      expect((await answer(entry.code)).status).toBe(status);
      expect((await tableDay(tableId))!.holds).toEqual({});
      expect((await bookTable(locationId, tableId)).status).toBe('confirmed');
      expect((await answer(entry.code)).status).toBe(status);
      expect((await waitlist.get(companyId, entry.id))!.version).toBe(3);
      expect(await events(event, entry.id)).toHaveLength(1);
    },
  );
});
