/** Unseating refuses once a purchase was recorded on a tab (the purchases area counts them there; 0 until it exists). */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { bookings } from '../../shared/data/bookings';
import { db, tableName } from '../../shared/data/client';
import { tabs } from '../../shared/data/tabs';
import { createBooking } from '../../shared/domain/bookings/create';
import { seatBooking, unseatBooking } from '../../shared/domain/bookings/seating';
import { putBookingSettings } from '../../shared/domain/bookings/settings';
import { createLocation } from '../../shared/domain/locations';
import { weekdays } from '../../shared/schemas/locations';

/** Open all day every day: a booking without tables must lie within the booking hours (docs/bookings.md). */
const ALL_DAY = Object.fromEntries(weekdays.map((d) => [d, [{ open: '00:00', close: '24:00' }]]));

const companyId = 23_000 + Math.floor(Math.random() * 1000);
const principal: Principal = {
  kind: 'user',
  companyId,
  permissions: [],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: `test:${companyId}`,
  internalOperator: false,
};
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** What the purchases area does when it records a purchase on a tab. */
const recordPurchase = (tabId: string) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `C#${companyId}`, sk: `TAB#${tabId}` },
      UpdateExpression: 'ADD purchaseCount :one, version :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );

let locationId: number;
beforeAll(async () => {
  locationId = (
    await createLocation(
      principal,
      { name: 'Unseat bistro', timezone: 'Europe/Stockholm', operatingHours: ALL_DAY },
      33_000 + Math.floor(Math.random() * 1000),
    )
  ).id;
  await putBookingSettings(principal, locationId, { maxAdvanceDays: 30 });
});

describe('unseat with purchases', () => {
  it('answers 409 and changes nothing when a tab has a purchase', async () => {
    const booking = await createBooking(principal, {
      locationId,
      bookingDate: tomorrow,
      startTime: '19:00',
      guestCount: 2,
      guestName: 'Paid already',
    });
    const seated = await seatBooking(principal, booking.id, {});
    await recordPurchase(seated.tab.id);
    await expect(unseatBooking(principal, booking.id, 'Wrong party')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('Purchases exist'),
    });
    expect(await bookings.get(companyId, booking.id)).toEqual(seated);
    expect((await tabs.get(companyId, seated.tab.id))!.status).toBe('open');
  });
});
