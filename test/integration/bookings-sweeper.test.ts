/**
 * The no-show sweeper against DynamoDB Local: due bookings found through their sweep items (no
 * Scan), marked once. The sweep reads only this file's company here (its due-item reader is
 * narrowed to it), so it never marks another file's bookings: with workers in parallel, a sweep
 * over every company took the booking test/integration/alerts.test.ts holds back on purpose.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { bookings } from '../../shared/data/bookings';
import { dueForNoShow } from '../../shared/data/noShowSweep';
import { db, tableName } from '../../shared/data/client';
import { createBooking } from '../../shared/domain/bookings/create';
import { putBookingSettings } from '../../shared/domain/bookings/settings';
import { cancelBooking, checkInBooking, sweepNoShows } from '../../shared/domain/bookings/transitions';
import { createLocation } from '../../shared/domain/locations';
import { asFunction } from '../support/aws-call-log';
import { weekdays } from '../../shared/schemas/locations';

/** Open all day every day: a booking without tables must lie within the booking hours (docs/bookings.md). */
const ALL_DAY = Object.fromEntries(weekdays.map((d) => [d, [{ open: '00:00', close: '24:00' }]]));

const companyId = 21_000 + Math.floor(Math.random() * 1000);

vi.mock('../../shared/data/noShowSweep', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../shared/data/noShowSweep')>();
  return {
    ...original,
    dueForNoShow: async (since: number, now: number) =>
      (await original.dueForNoShow(since, now)).filter((d) => d.companyId === companyId),
  };
});
const principal: Principal = {
  kind: 'user',
  companyId,
  permissions: [],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: `test:${companyId}`,
  internalOperator: false,
};

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

const book = (guestName: string) => createBooking(principal, { locationId, ...slot, guestCount: 2, guestName });

async function eventsOfType(type: string): Promise<Record<string, unknown>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `C#${companyId}#EVENTS#${type}` },
    }),
  );
  return (out.Items ?? []).map((i) => i.payload);
}

beforeAll(async () => {
  const location = await createLocation(
    principal,
    { name: 'Sweeper bistro', timezone: 'Europe/Stockholm', operatingHours: ALL_DAY },
    31_000 + Math.floor(Math.random() * 1000),
  );
  locationId = location.id;
  await putBookingSettings(principal, locationId, { autoNoShowDelayMinutes: 15 });
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
});
