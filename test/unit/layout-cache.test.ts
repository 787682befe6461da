/** The layout availability keeps per container (shared/domain/bookings/layoutCache.ts): by token, bounded, least recently used dropped first. */
import { beforeEach, describe, expect, it } from 'vitest';
import { floorDigest } from '../../shared/domain/bookings/floor';
import {
  ANSWERED_FLOORS,
  LAYOUT_CACHE_LOCATIONS,
  layoutCache,
  type Layout,
} from '../../shared/domain/bookings/layoutCache';

const layout = (name: string) =>
  ({ location: { name }, settings: {}, tables: [], groups: new Map() }) as unknown as Layout;

describe('the layout cache', () => {
  beforeEach(() => layoutCache.clear());

  it('answers a layout only under the token it was kept under, and forgets it once another token is asked', () => {
    layoutCache.keep(1, 10, 'a', layout('first'));
    expect(layoutCache.get(1, 10, 'a')?.location.name).toBe('first');
    expect(layoutCache.get(2, 10, 'a')).toBeUndefined(); // another company's location of the same id
    expect(layoutCache.get(1, 10, 'b')).toBeUndefined();
    expect(layoutCache.get(1, 10, 'a')).toBeUndefined(); // a newer token was seen: the old layout is gone
    expect(layoutCache.size()).toBe(0);
  });

  it(`keeps at most ${LAYOUT_CACHE_LOCATIONS} locations, dropping the least recently used`, () => {
    for (let loc = 0; loc < LAYOUT_CACHE_LOCATIONS; loc++) layoutCache.keep(1, loc, 't', layout(`L${loc}`));
    expect(layoutCache.get(1, 0, 't')).toBeDefined(); // used: now the most recent
    layoutCache.keep(1, LAYOUT_CACHE_LOCATIONS, 't', layout('new'));
    expect(layoutCache.size()).toBe(LAYOUT_CACHE_LOCATIONS);
    expect(layoutCache.get(1, 1, 't')).toBeUndefined(); // the least recently used went
    expect(layoutCache.get(1, 0, 't')).toBeDefined();
    expect(layoutCache.get(1, LAYOUT_CACHE_LOCATIONS, 't')?.location.name).toBe('new');
  });

  it(`keeps re-seating's answers with the layout, for its token only, on at most ${ANSWERED_FLOORS} floors`, () => {
    expect(layoutCache.reseatAnswers(1, 10, 'a', 'floor')).toBeUndefined(); // no layout kept
    layoutCache.keep(1, 10, 'a', layout('first'));
    layoutCache.reseatAnswers(1, 10, 'a', 'floor')!.set('1/2', true);
    expect(layoutCache.reseatAnswers(1, 10, 'a', 'floor')!.get('1/2')).toBe(true);
    expect(layoutCache.reseatAnswers(1, 10, 'b', 'floor')).toBeUndefined();
    for (let i = 0; i < ANSWERED_FLOORS; i++) layoutCache.reseatAnswers(1, 10, 'a', `other ${i}`);
    expect(layoutCache.reseatAnswers(1, 10, 'a', 'floor')!.size).toBe(0); // the least recently asked floor went
    layoutCache.keep(1, 10, 'a', layout('again')); // kept anew: its answers start empty
    expect(layoutCache.reseatAnswers(1, 10, 'a', 'other 3')!.size).toBe(0);
  });
});

describe('the digest of a floor re-seating answers on', () => {
  const booking = {
    id: 'b1',
    tableIds: ['T1'],
    startsAt: '2026-12-12T17:00:00.000Z',
    endsAt: '2026-12-12T19:00:00.000Z',
    guestCount: 2,
    status: 'confirmed' as const,
    bookingDate: '2026-12-12',
    locked: false,
  };
  const base = floorDigest('2026-12-12', 4, undefined, [booking, { ...booking, id: 'b2' }]);

  it('does not depend on the order the holds were read in', () => {
    expect(floorDigest('2026-12-12', 4, undefined, [{ ...booking, id: 'b2' }, booking])).toBe(base);
  });

  it('changes with the date, the party, the group and every field of every hold', () => {
    const changed = [
      floorDigest('2026-12-13', 4, undefined, [booking, { ...booking, id: 'b2' }]),
      floorDigest('2026-12-12', 5, undefined, [booking, { ...booking, id: 'b2' }]),
      floorDigest('2026-12-12', 4, 'g', [booking, { ...booking, id: 'b2' }]),
      floorDigest('2026-12-12', 4, undefined, [booking]),
      ...(
        [
          ['id', 'b3'],
          ['tableIds', ['T2']],
          ['startsAt', '2026-12-12T17:15:00.000Z'],
          ['endsAt', '2026-12-12T19:15:00.000Z'],
          ['guestCount', 3],
          ['status', 'seated'],
          ['bookingDate', '2026-12-11'],
          ['locked', true],
        ] as const
      ).map(([field, value]) =>
        floorDigest('2026-12-12', 4, undefined, [
          { ...booking, [field]: value },
          { ...booking, id: 'b2' },
        ]),
      ),
    ];
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
  });
});
