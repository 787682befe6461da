/** Tabs for a booking's tables, the tables' open-tab claims and the writes of both (shared/domain/bookings/tabs.ts). */
import { describe, expect, it } from 'vitest';
import type { Booking, BookingTab } from '../../shared/data/bookings';
import {
  claimChanges,
  claimsOf,
  diffClaims,
  initialTabs,
  openTabClaims,
  planTabs,
  tabChanges,
} from '../../shared/domain/bookings/tabs';

const ids = () => {
  let n = 0;
  return () => `new${++n}`;
};
const tab = (id: string, tableId: string | null, status: BookingTab['status'] = 'pre_arrival'): BookingTab => ({
  id,
  tableId,
  status,
});
const booking = (change: Partial<Booking>): Booking =>
  ({ id: 'b', tableIds: [], tabs: [], status: 'confirmed', ...change }) as Booking;

describe('the tabs of a new booking', () => {
  it('is one tab on the primary table with the single strategy (or on no table)', () => {
    expect(initialTabs(['a', 'b'], 'single', false, ids())).toEqual([tab('new1', 'a')]);
    expect(initialTabs([], 'single', false, ids())).toEqual([tab('new1', null)]);
  });

  it('is one tab per table with per_resource, open when seated at once', () => {
    expect(initialTabs(['a', 'b'], 'per_resource', true, ids())).toEqual([
      tab('new1', 'a', 'open'),
      tab('new2', 'b', 'open'),
    ]);
  });
});

describe('planning tabs for a change of tables or strategy', () => {
  it('re-points the primary tab to the new primary table (single)', () => {
    const plan = planTabs([tab('p', 'a')], ['c', 'a'], 'single', false, ids());
    expect(plan).toEqual({
      tabs: [tab('p', 'c')],
      created: [],
      changed: [[tab('p', 'a'), tab('p', 'c')]],
      activeRemoved: [],
    });
  });

  it('keeps per-resource tabs whose table stays, closes the others, creates the missing ones', () => {
    const plan = planTabs([tab('p', 'a'), tab('x', 'b'), tab('y', 'c')], ['a', 'c', 'd'], 'per_resource', false, ids());
    expect(plan.tabs).toEqual([tab('p', 'a'), tab('y', 'c'), tab('new1', 'd')]);
    expect(plan.created).toEqual([tab('new1', 'd')]);
    expect(plan.changed).toEqual([[tab('x', 'b'), tab('x', 'b', 'closed')]]);
    expect(plan.activeRemoved).toEqual([]);
  });

  it('names the tables that lose an open tab (a removed table of a seated booking, or the moved primary)', () => {
    const seated = [tab('p', 'a', 'open'), tab('x', 'b', 'open')];
    expect(planTabs(seated, ['a'], 'per_resource', true, ids()).activeRemoved).toEqual(['b']);
    expect(planTabs(seated, ['b'], 'per_resource', true, ids()).activeRemoved).toEqual(['b', 'a']);
    expect(planTabs([tab('p', 'a', 'open')], ['a', 'c'], 'single', true, ids()).activeRemoved).toEqual([]);
  });

  it('closes the extra tabs when per_resource becomes single before seating', () => {
    const plan = planTabs([tab('p', 'a'), tab('x', 'b')], ['a', 'b'], 'single', false, ids());
    expect(plan.tabs).toEqual([tab('p', 'a')]);
    expect(plan.changed).toEqual([[tab('x', 'b'), tab('x', 'b', 'closed')]]);
  });
});

describe('open-tab claims', () => {
  it('has each table claimed by its own tab, else by the primary', () => {
    const claims = openTabClaims([tab('p', 'a'), tab('x', 'c')], ['a', 'b', 'c']);
    expect([...claims]).toEqual([
      ['a', 'p'],
      ['b', 'p'],
      ['c', 'x'],
    ]);
  });

  it('diffs two sets of claims into claims, re-pointings and releases', () => {
    const before = new Map([
      ['a', 'p'],
      ['b', 'p'],
    ]);
    const after = new Map([
      ['a', 'p'],
      ['b', 'x'],
      ['c', 'p'],
    ]);
    expect(diffClaims(before, after)).toEqual({
      claim: [{ tableId: 'c', tabId: 'p' }],
      repoint: [{ tableId: 'b', tabId: 'x' }],
      release: [],
    });
    expect(diffClaims(after, new Map())).toEqual({ claim: [], repoint: [], release: ['a', 'b', 'c'] });
  });
});

describe('open-tab claims of a booking', () => {
  it('claims every table for the tab serving it while that tab is open', () => {
    const seated = { tableIds: ['a', 'b', 'c'], tabs: [tab('p', 'a', 'open'), tab('x', 'c', 'pre_arrival')] };
    expect([...claimsOf(seated)]).toEqual([
      ['a', 'p'],
      ['b', 'p'],
    ]);
  });

  it('turns a change of claims into releases, re-pointings and claims for this booking', () => {
    const before = { tableIds: ['a', 'b'], tabs: [tab('p', 'a', 'open')] };
    const after = booking({ tableIds: ['a', 'b', 'c'], tabs: [tab('p', 'a', 'open'), tab('x', 'b', 'open')] });
    expect(claimChanges(before, after)).toEqual([
      { op: 'repoint', tableId: 'b', tabId: 'x', bookingId: 'b' },
      { op: 'claim', tableId: 'c', tabId: 'p', bookingId: 'b' },
    ]);
    expect(
      claimChanges(after, { ...after, tabs: after.tabs.map((t) => ({ ...t, status: 'closed' as const })) }).map((c) => [
        c.op,
        c.tableId,
      ]),
    ).toEqual([
      ['release', 'a'],
      ['release', 'b'],
      ['release', 'c'],
    ]);
  });
});

describe('tab writes', () => {
  it('conditions each change on the status read, stamping opening and closing', () => {
    const writes = tabChanges(
      [tab('p', 'a', 'pre_arrival'), tab('x', 'b', 'open'), tab('y', 'c', 'open')],
      [tab('p', 'a', 'open'), tab('x', 'b', 'closed'), tab('y', 'c', 'open')],
      'T',
    );
    expect(writes).toEqual([
      { id: 'p', expectedStatus: 'pre_arrival', set: { status: 'open', openedAt: 'T' } },
      { id: 'x', expectedStatus: 'open', set: { status: 'closed', closedAt: 'T' } },
    ]);
    expect(tabChanges([tab('p', 'a', 'open')], [tab('p', 'b', 'pre_arrival')], 'T', true)).toEqual([
      { id: 'p', expectedStatus: 'open', set: { status: 'pre_arrival', tableId: 'b' }, untouched: true },
    ]);
  });
});
