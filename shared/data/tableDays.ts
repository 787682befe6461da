/**
 * Table days: each table's holds on one local day (docs/bookings.md, "No double booking").
 *
 *   table day   C#<cid>#TABLE#<tableId> / DAY#<local date>   holds {bookingId: [startMs, endMs]}, version
 *
 * A booking reads the days its hold could touch and writes each back at the version it read, so of
 * two bookings that could clash (they always write a common day) only one commits.
 */
import { Type, type Static } from '../schemas/typebox';
import { AppError, conflict } from '../errors';
import type { ReadRequest } from './batch';
import { tableName } from './client';
import { defineEntity } from './entity';
import { keys } from './keys';
import { atVersion, conditionalPutStep, type Step } from './transact';

/**
 * A table's holds on one local day: booking id → [startMs, endMs), or [startMs, endMs, expiresMs]
 * for a hold that lapses by itself (a waitlist offer, docs/waitlist.md): from `expiresMs` on it
 * holds nothing, and the next write of the day drops it.
 */
const DayHolds = Type.Record(
  Type.String(),
  Type.Union([Type.Tuple([Type.Number(), Type.Number()]), Type.Tuple([Type.Number(), Type.Number(), Type.Number()])]),
);
type DayHolds = Static<typeof DayHolds>;

/** A table-day item as stored. */
const StoredDay = Type.Object({
  tableId: Type.String(),
  date: Type.String(),
  holds: DayHolds,
  version: Type.Integer(),
});
type StoredDay = Static<typeof StoredDay>;

/** A table-day item as read: `version` null when it does not exist yet. */
export type TableDay = Omit<StoredDay, 'version'> & { version: number | null };

/** A table-day item to write: its new holds, conditioned on the version read. */
export interface TableDayWrite {
  tableId: string;
  date: string;
  holds: DayHolds;
  expectedVersion: number | null;
}

/** A table day changed since it was read, or a concurrent transaction held the same items: read again and retry. */
export class Contention extends AppError {
  constructor() {
    super('CONFLICT', 'Another request is booking the same tables right now; try again');
  }
}

const tableDayEntity = defineEntity({
  name: 'TABLE_DAY',
  label: 'table day',
  key: (companyId: number, tableId: string, date: string) => ({
    pk: `${keys.company(companyId)}#TABLE#${tableId}`,
    sk: `DAY#${date}`,
  }),
  schema: StoredDay,
  keyOf: (companyId, d) => [companyId, d.tableId, d.date] as const,
});

export const tableDays = {
  /** A read of some tables' days, for `readTogether`: every day asked, an absent one as empty with version null. */
  read(companyId: number, wanted: readonly { tableId: string; date: string }[]): ReadRequest<TableDay[]> {
    const reads = wanted.map((w) => ({ ...w, request: tableDayEntity.read(companyId, w.tableId, w.date) }));
    return {
      keys: reads.flatMap((r) => r.request.keys),
      answer: (found) =>
        reads.map(({ tableId, date, request }) => request.answer(found) ?? { tableId, date, holds: {}, version: null }),
    };
  },

  /** Puts the day back with its new holds, at the version read (absent: still absent); else Contention. */
  writeStep(companyId: number, w: TableDayWrite): Step {
    const item = tableDayEntity.item(companyId, {
      tableId: w.tableId,
      date: w.date,
      holds: w.holds,
      version: (w.expectedVersion ?? 0) + 1,
    });
    const stillAsRead =
      w.expectedVersion === null ? { expression: 'attribute_not_exists(pk)' } : atVersion(w.expectedVersion);
    return conditionalPutStep(item, stillAsRead, () => new Contention());
  },

  /** Drops a booking's hold from a day without reading it. The version moves, so a writer that read the hold cannot put it back. */
  releaseStep(companyId: number, tableId: string, date: string, bookingId: string): Step {
    const update = {
      TableName: tableName(),
      Key: tableDayEntity.key(companyId, tableId, date),
      UpdateExpression: 'REMOVE holds.#b ADD version :one',
      ConditionExpression: 'attribute_exists(holds)',
      ExpressionAttributeNames: { '#b': bookingId },
      ExpressionAttributeValues: { ':one': 1 },
    };
    return {
      item: { Update: update },
      onConditionFailed: () => conflict(`The holds of table ${tableId} on ${date} are missing`),
    };
  },
};
