/**
 * The claim that keeps one open tab per table (docs/bookings.md#data):
 *
 *   open tab   C#<cid>#TABLE#<tableId> / OPENTAB   tabId, bookingId: the tab open on the table
 *
 * A booking claims its tables when its tabs open (seating), re-points a claim to another of its
 * tabs (a split, a table change while seated) and releases it when the tab leaves the table.
 */
import { AppError, conflict } from '../errors';
import { keys } from './keys';
import { conditionalPutStep, deleteStep, putNewStep, type Step } from './transact';

/** The table already has an open tab (another party sits there). */
export class TableOccupied extends AppError {
  constructor(readonly tableId: string) {
    super('CONFLICT', `Table ${tableId} already has an open tab`);
  }
}

/** A change of a table's open-tab claim, made by a booking. */
export interface OpenTabChange {
  op: 'claim' | 'repoint' | 'release';
  tableId: string;
  /** The tab that claims the table (claim, repoint). */
  tabId?: string;
  bookingId: string;
}

const openTabKey = (companyId: number, tableId: string) => ({
  pk: `${keys.company(companyId)}#TABLE#${tableId}`,
  sk: 'OPENTAB',
});

/** A claim is made only on a free table; a booking moves or drops only its own claims. */
export function openTabSteps(companyId: number, changes: readonly OpenTabChange[]): Step[] {
  return changes.map((c): Step => {
    const key = openTabKey(companyId, c.tableId);
    const own = { expression: 'bookingId = :b', values: { ':b': c.bookingId } };
    const notOwn = () => conflict(`Table ${c.tableId} is not held by this booking's tab`);
    if (c.op === 'release') return deleteStep(key, own, notOwn);
    const item = { ...key, entity: 'OPEN_TAB', companyId, tableId: c.tableId, tabId: c.tabId, bookingId: c.bookingId };
    return c.op === 'claim'
      ? putNewStep(item, () => new TableOccupied(c.tableId))
      : conditionalPutStep(item, own, notOwn);
  });
}
