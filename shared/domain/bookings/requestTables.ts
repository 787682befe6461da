/**
 * The tables a create or an update names, and the answers that point at them. Pure. `tableIds`
 * supersedes the legacy `tableId`, which becomes a one-element set; errors name the field the
 * request used (`/tableIds/<i>`, or `/tableId`).
 */
import type { DiningTable } from '../../data/tables';
import { AppError } from '../../errors';

export interface RequestedTables {
  field: '/tableIds' | '/tableId';
  tableIds: string[];
}

/** The tables the request names; `otherwise` when it names none (none for a create, the booking's own for an update). */
export function requestedTables(
  input: { tableIds?: string[] | undefined; tableId?: string | undefined },
  otherwise: string[],
): RequestedTables {
  return {
    field: input.tableIds ? '/tableIds' : '/tableId',
    tableIds: input.tableIds ?? (input.tableId !== undefined ? [input.tableId] : otherwise),
  };
}

/** The place of a table in the request: `/tableIds/<i>`, or `/tableId` when the legacy field named it. */
export const tableAt = (r: RequestedTables, tableId: string) =>
  r.field === '/tableIds' ? `/tableIds/${r.tableIds.indexOf(tableId)}` : r.field;

/**
 * 404 for the first of `checked` (by default every requested table) that is not among `found`, the
 * location's tables as read: another location's or company's table is not found either.
 */
export function assertTablesFound(
  locationId: number,
  r: RequestedTables,
  found: readonly DiningTable[],
  checked: readonly string[] = r.tableIds,
): void {
  const missing = checked.find((id) => !found.some((t) => t.id === id));
  if (missing === undefined) return;
  throw new AppError('NOT_FOUND', `Table ${missing} not found at location ${locationId}`, [
    { path: tableAt(r, missing), message: 'no table with this id at this location' },
  ]);
}
