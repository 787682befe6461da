/**
 * The no-show sweeper against DynamoDB Local: due bookings found through their sweep items (no
 * Scan), in every shard of their hour and under the old unsharded key, marked once, and once only
 * when two sweeps run at the same moment. The sweep reads only this file's two companies here (its
 * due-item reader is narrowed to them), so it never marks another file's bookings: with workers in
 * parallel, a sweep over every company took the booking test/integration/alerts.test.ts holds back
 * on purpose.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { bookings, type Booking } from '../../shared/data/bookings';
import { dueForNoShow, SWEEP_SHARDS, sweepItemKey, sweepShard } from '../../shared/data/noShowSweep';
import { db, tableName } from '../../shared/data/client';
import { createBooking } from '../../shared/domain/bookings/create';
import { putBookingSettings } from '../../shared/domain/bookings/settings';
import { cancelBooking, checkInBooking, sweepNoShows } from '../../shared/domain/bookings/transitions';
import { createLocation } from '../../shared/domain/locations';
import { asFunction } from '../support/aws-call-log';
import { idBlock } from '../support/id-blocks';
import { weekdays } from '../../shared/schemas/locations';
import { companyEvents } from '../support/events';

/** Open all day every day: a booking without tables must lie within the booking hours (docs/bookings.md). */
const ALL_DAY = Object.fromEntries(weekdays.map((d) => [d, [{ open: '00:00', close: '24:00' }]]));

const ids = idBlock(import.meta.url);
const companyId = ids.next();
/** A second company, so that the sweep has companies to run side by side. */
const otherCompanyId = ids.next();

vi.mock('../../shared/data/noShowSweep', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../shared/data/noShowSweep')>();
  return {
    ...original,
    dueForNoShow: async (since: number, now: number) =>
      (await original.dueForNoShow(since, now)).filter(
        (d) => d.companyId === companyId || d.companyId === otherCompanyId,
      ),
  };
});
const principalOf = (id: number): Principal => ({
  kind: 'user',
  companyId: id,
  permissions: [],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: `test:${id}`,
  internalOperator: false,
});
const principal = principalOf(companyId);
const otherPrincipal = principalOf(otherCompanyId);

let locationId: number;
/** A start two hours from now, as the location's local date and time (Stockholm). */
const start = new Date(Date.now() + 2 * 3_600_000);
const local = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Stockholm',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
}).formatToParts(start);
const part = (type: string) => local.find((p) => p.type === type)!.value;
const slot = {
  bookingDate: `${part('year')}-${part('month')}-${part('day')}`,
  startTime: `${part('hour')}:${part('minute')}`,
};

let otherLocationId: number;

const book = (guestName: string) => createBooking(principal, { locationId, ...slot, guestCount: 2, guestName });
const bookElsewhere = (guestName: string) =>
  createBooking(otherPrincipal, { locationId: otherLocationId, ...slot, guestCount: 2, guestName });

async function eventsOfType(type: string, company = companyId): Promise<Record<string, unknown>[]> {
  return (await companyEvents(company, type)).Items.map((i) => i.payload);
}

beforeAll(async () => {
  const location = await createLocation(
    principal,
    { name: 'Sweeper bistro', timezone: 'Europe/Stockholm', operatingHours: ALL_DAY },
    ids.next(),
  );
  locationId = location.id;
  await putBookingSettings(principal, locationId, { autoNoShowDelayMinutes: 15 });
  const other = await createLocation(
    otherPrincipal,
    { name: 'Sweeper brasserie', timezone: 'Europe/Stockholm', operatingHours: ALL_DAY },
    ids.next(),
  );
  otherLocationId = other.id;
  await putBookingSettings(otherPrincipal, otherLocationId, { autoNoShowDelayMinutes: 15 });
});

/** As the sweeper function runs it (functions/sweeper), so the suite's IAM check asks its role. */
const sweep = (now: number) => asFunction('no-show-sweeper', () => sweepNoShows(now));

describe('the no-show sweeper', () => {
  it('marks confirmed and checked-in bookings autoNoShowDelayMinutes after their start, once, and leaves the others', async () => {
    const confirmed = await book('Confirmed');
    const checkedIn = await book('Checked in');
    await checkInBooking(principal, checkedIn.id);
    const cancelled = await book('Cancelled');
    await cancelBooking(principal, cancelled.id, {});
    const dueAt = Date.parse(confirmed.startsAt) + 15 * 60_000;
    expect(confirmed.autoNoShowAt).toBe(new Date(dueAt).toISOString());

    await sweep(dueAt - 60_000);
    expect((await bookings.get(companyId, confirmed.id))!.status).toBe('confirmed');

    await sweep(dueAt + 60_000);
    const after = await Promise.all([confirmed, checkedIn, cancelled].map((b) => bookings.get(companyId, b.id)));
    expect(after.map((b) => b!.status)).toEqual(['no_show', 'no_show', 'cancelled']);
    expect(after[0]).toMatchObject({ autoNoShowAt: null, tab: { status: 'closed' }, version: confirmed.version + 1 });
    const noShows = await eventsOfType('booking.no-show');
    expect(noShows.map((e) => e.resourceId).sort()).toEqual([confirmed.id, checkedIn.id].sort());

    // Their sweep items went with the change: a second run finds nothing of this company.
    const again = await dueForNoShow(dueAt - 3_600_000, dueAt + 60_000);
    expect(again.filter((d) => d.companyId === companyId)).toEqual([]);
    await sweep(dueAt + 120_000);
    expect(await eventsOfType('booking.no-show')).toHaveLength(2);
  });

  it('leaves a pending booking pending (it may still be confirmed)', async () => {
    await putBookingSettings(principal, locationId, { confirmationMode: 'request_based' });
    const pending = await book('Pending');
    await sweep(Date.parse(pending.autoNoShowAt!) + 60_000);
    expect((await bookings.get(companyId, pending.id))!.status).toBe('pending');
    await putBookingSettings(principal, locationId, { confirmationMode: 'instant' });
  });

  it('marks in one run the due bookings of two companies spread over the shards of their hour, and two sweeps at once mark each once', async () => {
    const made: Booking[] = [];
    for (let i = 0; i < 12; i++) made.push(await book(`Spread ${i}`));
    for (let i = 0; i < 12; i++) made.push(await bookElsewhere(`Spread elsewhere ${i}`));
    const ofCompany = (b: Booking) => (made.indexOf(b) < 12 ? companyId : otherCompanyId);
    const shards = new Set(made.map((b) => sweepShard(ofCompany(b), b.id)));
    // 24 random ids over 16 shards: all in fewer than four is below one chance in 10^9.
    expect(shards.size).toBeGreaterThanOrEqual(4);
    expect(Math.max(...shards)).toBeLessThan(SWEEP_SHARDS);
    const dueAt = Math.max(...made.map((b) => Date.parse(b.autoNoShowAt!)));
    const hour = new Date(dueAt).toISOString().slice(0, 13);
    for (const b of made.slice(0, 3))
      expect(sweepItemKey(ofCompany(b), b.id, b.autoNoShowAt!).pk).toMatch(new RegExp(`^SWEEP#${hour}#\\d{2}$`));

    // Two sweeps at the same moment (a run that overlaps the next): each booking marked once, one event each.
    const runs = await Promise.all([sweep(dueAt + 60_000), sweep(dueAt + 60_000)]);
    const statuses = await Promise.all(made.map(async (b) => (await bookings.get(ofCompany(b), b.id))!.status));
    // A transaction both sweeps cancel leaves its booking to the next run; the third finds nothing else.
    const third = await sweep(dueAt + 120_000);
    expect(runs[0]! + runs[1]! + third).toBe(made.length);
    expect(statuses.filter((s) => s !== 'no_show').length).toBe(third);
    const after = await Promise.all(made.map((b) => bookings.get(ofCompany(b), b.id)));
    expect(after.every((b) => b!.status === 'no_show')).toBe(true);
    const events = [
      ...(await eventsOfType('booking.no-show')),
      ...(await eventsOfType('booking.no-show', otherCompanyId)),
    ].map((e) => e.resourceId);
    for (const b of made)
      expect(
        events.filter((id) => id === b.id),
        b.id,
      ).toHaveLength(1);
    const left = await dueForNoShow(dueAt - 3_600_000, dueAt + 120_000);
    expect(left.filter((d) => made.some((b) => b.id === d.bookingId))).toEqual([]);
  });

  it('still marks a booking whose sweep item was written before the shards (under its hour alone), once', async () => {
    const old = await book('Before the shards');
    const dueAt = old.autoNoShowAt!;
    // As the booking's transaction wrote it before the shards: the hour's partition, no shard.
    const sharded = sweepItemKey(companyId, old.id, dueAt);
    await db().send(new DeleteCommand({ TableName: tableName(), Key: sharded }));
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: `SWEEP#${dueAt.slice(0, 13)}`,
          sk: sharded.sk,
          entity: 'NO_SHOW_SWEEP',
          companyId,
          bookingId: old.id,
          dueAt,
        },
      }),
    );
    const due = await dueForNoShow(Date.parse(dueAt) - 3_600_000, Date.parse(dueAt) + 60_000);
    expect(due.filter((d) => d.bookingId === old.id)).toEqual([{ companyId, bookingId: old.id, dueAt }]);
    expect(await sweep(Date.parse(dueAt) + 60_000)).toBe(1);
    expect((await bookings.get(companyId, old.id))!.status).toBe('no_show');
    // The old item stays (the no-show deletes the sharded key): the next run reads it and leaves the booking be.
    expect(await sweep(Date.parse(dueAt) + 120_000)).toBe(0);
    expect((await eventsOfType('booking.no-show')).filter((e) => e.resourceId === old.id)).toHaveLength(1);
  });
});
