/** The layout availability keeps per container (shared/domain/bookings/layoutCache.ts): by token, bounded, least recently used dropped first. */
import { beforeEach, describe, expect, it } from 'vitest';
import { LAYOUT_CACHE_LOCATIONS, layoutCache, type Layout } from '../../shared/domain/bookings/layoutCache';

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
});
