/** The tables a create or update names, and where errors point (shared/domain/bookings/requestTables.ts). */
import { describe, expect, it } from 'vitest';
import type { DiningTable } from '../../shared/data/tables';
import { assertTablesFound, requestedTables, tableAt } from '../../shared/domain/bookings/requestTables';

describe('the tables a request names', () => {
  it('takes tableIds over the legacy tableId, and the fallback when neither is sent', () => {
    expect(requestedTables({ tableIds: ['a', 'b'], tableId: 'c' }, [])).toEqual({
      field: '/tableIds',
      tableIds: ['a', 'b'],
    });
    expect(requestedTables({ tableId: 'c' }, ['x'])).toEqual({ field: '/tableId', tableIds: ['c'] });
    expect(requestedTables({}, ['x'])).toEqual({ field: '/tableId', tableIds: ['x'] });
  });

  it('points at a table by its index in tableIds, or at tableId', () => {
    expect(tableAt({ field: '/tableIds', tableIds: ['a', 'b'] }, 'b')).toBe('/tableIds/1');
    expect(tableAt({ field: '/tableId', tableIds: ['c'] }, 'c')).toBe('/tableId');
  });

  it('answers 404 for the first table checked that the location does not have', () => {
    const requested = { field: '/tableIds' as const, tableIds: ['a', 'b', 'c'] };
    const found = [{ id: 'a' }, { id: 'c' }] as DiningTable[];
    expect(() => assertTablesFound(101, requested, found)).toThrow(
      expect.objectContaining({
        code: 'NOT_FOUND',
        details: [{ path: '/tableIds/1', message: 'no table with this id at this location' }],
      }),
    );
    expect(() => assertTablesFound(101, requested, found, ['c'])).not.toThrow();
  });
});
