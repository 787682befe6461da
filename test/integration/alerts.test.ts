/**
 * Alerts against DynamoDB Local: the no-show sweep's failure alert (a forced failure of the
 * sweep's write), its location and its one-a-day id; the transitions' conditional writes and the
 * status counters. The sweep reads only this file's company here (its due-item reader is narrowed
 * to it), so other files' bookings are never swept by this one.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { alerts, raiseAlert } from '../../shared/data/alerts';
import { bookings } from '../../shared/data/bookings';
import type { Step } from '../../shared/data/transact';
import { acknowledgeAlert, listAlerts, newAlert, resolveAlert } from '../../shared/domain/alerts';
import { createBooking } from '../../shared/domain/bookings/create';
import { putBookingSettings } from '../../shared/domain/bookings/settings';
import { createLocation } from '../../shared/domain/locations';
import { SWEEP_ALERT_TYPE, derivedUuid, watchedNoShowSweep } from '../../shared/domain/sweeps';
import { idBlock } from '../support/id-blocks';
import { weekdays } from '../../shared/schemas/locations';

/** Open all day every day: a booking without tables must lie within the booking hours (docs/bookings.md). */
const ALL_DAY = Object.fromEntries(weekdays.map((d) => [d, [{ open: '00:00', close: '24:00' }]]));

const ids = idBlock(import.meta.url);
const companyId = ids.next();

/** Bookings whose write fails, as if DynamoDB refused it. */
const failing = new Set<string>();

vi.mock('../../shared/data/noShowSweep', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../shared/data/noShowSweep')>();
  return {
    ...original,
    dueForNoShow: async (since: number, now: number) =>
      (await original.dueForNoShow(since, now)).filter((d) => d.companyId === companyId),
  };
});
vi.mock('../../shared/data/transact', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../shared/data/transact')>();
  const writes = (steps: Step[], id: string) =>
    steps.some((s) => (s.item.Put?.Item as { entity?: string; id?: string } | undefined)?.id === id);
  return {
    ...original,
    transact: async (steps: Step[]) => {
      for (const id of failing)
        if (writes(steps, id)) throw Object.assign(new Error('Internal server error (forced)'), { code: 'INTERNAL' });
      return original.transact(steps);
    },
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
/** A start two hours from now, as Stockholm's local date and time. */
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

beforeAll(async () => {
  locationId = (
    await createLocation(
      principal,
      { name: 'Alerts bistro', timezone: 'Europe/Stockholm', operatingHours: ALL_DAY },
      ids.next(),
    )
  ).id;
  await putBookingSettings(principal, locationId, { autoNoShowDelayMinutes: 15 });
});
afterEach(() => failing.clear());

describe('the no-show sweep, watched', () => {
  it("raises an alert at the booking's location when marking it fails, rethrows, and raises one a day however often it fails", async () => {
    const ok = await createBooking(principal, { locationId, ...slot, guestCount: 2, guestName: 'Fine' });
    const stuck = await createBooking(principal, { locationId, ...slot, guestCount: 2, guestName: 'Stuck' });
    failing.add(stuck.id);
    const nowMs = Date.parse(stuck.autoNoShowAt!) + 60_000;

    await expect(watchedNoShowSweep(nowMs)).rejects.toThrow('forced');
    const id = derivedUuid(`no-show-sweep#${companyId}#${stuck.id}#${new Date(nowMs).toISOString().slice(0, 10)}`);
    const alert = await alerts.get(companyId, id);
    expect(alert).toMatchObject({
      locationId,
      alertType: SWEEP_ALERT_TYPE,
      severity: 'error',
      latestStatus: 'active',
      message: expect.stringContaining(stuck.id),
      details: { bookingId: stuck.id, status: 'confirmed', autoNoShowAt: stuck.autoNoShowAt, errorCode: null },
      context: { sweep: 'no-show', bookingId: stuck.id, sweptAt: new Date(nowMs).toISOString() },
      stackTrace: expect.stringContaining('forced'),
    });
    expect((await bookings.get(companyId, stuck.id))!.status).toBe('confirmed');

    // Five minutes later it fails again: the same alert, no second one.
    await expect(watchedNoShowSweep(nowMs + 300_000)).rejects.toThrow('forced');
    const listed = await listAlerts(principal, { locationId, alertType: SWEEP_ALERT_TYPE, page: 1, limit: 100 });
    expect(listed.items.map((a) => a.id)).toEqual([id]);
    expect(listed.dataKey).toBe('alerts');

    // Once the write works again, the sweep marks it and raises nothing more.
    failing.clear();
    expect(await watchedNoShowSweep(nowMs + 600_000)).toBeGreaterThanOrEqual(1);
    expect((await bookings.get(companyId, stuck.id))!.status).toBe('no_show');
    expect((await bookings.get(companyId, ok.id))!.status).toBe('no_show');
    expect(
      (await listAlerts(principal, { locationId, alertType: SWEEP_ALERT_TYPE, page: 1, limit: 100 })).items,
    ).toHaveLength(1);
  });

  it('rethrows a failure no due booking explains, raising nothing', async () => {
    const before = (await listAlerts(principal, { page: 1, limit: 100 })).pagination.total;
    await expect(watchedNoShowSweep(Date.now(), async () => Promise.reject(new Error('no table')))).rejects.toThrow(
      'no table',
    );
    expect((await listAlerts(principal, { page: 1, limit: 100 })).pagination.total).toBe(before);
  });
});

describe('alert transitions', () => {
  it('write only at the version read (409 for the loser of two at once) and move the status counters', async () => {
    const alert = newAlert({ locationId, alertType: 'test.race', severity: 'warning', title: 'Race' });
    await raiseAlert(companyId, alert);
    const count = async (status: 'active' | 'acknowledged' | 'resolved') =>
      (await listAlerts(principal, { locationId, status, alertType: undefined, page: 1, limit: 1 })).pagination.total;
    const [active, acknowledged, resolved] = [
      await count('active'),
      await count('acknowledged'),
      await count('resolved'),
    ];

    const results = await Promise.allSettled([
      acknowledgeAlert(principal, alert.id),
      resolveAlert(principal, alert.id),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    // Both read version 1: exactly one wrote; or the second read after the first wrote and went on from there.
    const stored = (await alerts.get(companyId, alert.id))!;
    if (lost.length === 1) {
      expect(lost[0]!.reason).toMatchObject({ code: 'CONFLICT' });
      expect(stored.version).toBe(2);
    } else {
      expect(won).toHaveLength(2);
      expect(stored).toMatchObject({ latestStatus: 'resolved', version: 3 });
    }
    const after = [await count('active'), await count('acknowledged'), await count('resolved')];
    expect(after[0]).toBe(active - 1);
    expect(after[1]! + after[2]!).toBe(acknowledged + resolved + 1);
    expect(after).toEqual([
      active - 1,
      acknowledged + (stored.latestStatus === 'acknowledged' ? 1 : 0),
      resolved + (stored.latestStatus === 'resolved' ? 1 : 0),
    ]);
  });
});
