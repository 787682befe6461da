/**
 * The booking waitlist (docs/waitlist.md):
 *
 *   entry         C#<cid> / WAITLIST#<id>      gsi1 C#<cid>#L#<loc:12>#WAITLIST / <desiredDate>#<createdAt>#<id>
 *                                              gsi2 C#<cid>#WAITLIST / <desiredDate>#<createdAt>#<id>
 *   code lookup   WAITCODE#<code> / CODE       companyId, entryId and a copy of the entry
 *
 * As with bookings (bookings.ts), the code lookup keeps codes unique platform-wide and lets the
 * public by-code operations, which know no company, read the entry in one GetItem: every write of
 * an entry writes its copy in the same transaction.
 */
import type { Static } from '@sinclair/typebox';
import { AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { WaitlistEntryView, waitlistStatuses, type WaitlistStatus } from '../schemas/waitlist';
import { getItem } from './batch';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { locationExistsStep } from './locations';
import { dueSweepItems, offerLapseSweep, sweepSteps } from './noShowSweep';
import { outboxStep } from './outbox';
import { logPage, queryAll, readLog, type PageRequest } from './paging';
import { tableDays, type TableDayWrite } from './tableDays';
import { putNewStep, putStep, transact, type Condition, type Step } from './transact';

export { waitlistStatuses, type WaitlistStatus };

/** A party waiting for a table at a location on a date, within a window of local wall times (HH:MM): declared by WaitlistEntryView. */
export type WaitlistEntry = Static<typeof WaitlistEntryView>;

/**
 * The spot an entry was offered: its tables and times (as a booking's), held until `expiresAt`
 * under `bookingId`, the id the booking will have; `holdDates` the local dates the table-day hold
 * is stored in.
 */
export type WaitlistOffer = NonNullable<WaitlistEntry['offer']>;

/** Entries of a location over three days the floor reads at most (more: TooMany, 422). */
const MAX_ENTRIES_AROUND = 2000;

const locationPartition = (companyId: number, locationId: number) =>
  `${keys.company(companyId)}#L#${keys.pad(locationId)}#WAITLIST`;
const companyPartition = (companyId: number) => `${keys.company(companyId)}#WAITLIST`;
const listSortKey = (e: WaitlistEntry) => `${e.desiredDate}#${e.createdAt}#${e.id}`;

const entryEntity = defineEntity({
  name: 'WAITLIST_ENTRY',
  label: 'waitlist entry',
  key: (companyId: number, id: string) => companyKey(companyId, `WAITLIST#${id}`),
  schema: WaitlistEntryView,
  keyOf: (companyId, e) => [companyId, e.id] as const,
  indexes: (companyId, e) => ({
    gsi1pk: locationPartition(companyId, e.locationId),
    gsi1sk: listSortKey(e),
    gsi2pk: companyPartition(companyId),
    gsi2sk: listSortKey(e),
  }),
});

/** The code drawn for a new entry is taken: draw another. */
export class WaitlistCodeTaken extends AppError {
  constructor() {
    super('CONFLICT', 'The waitlist code is taken');
  }
}

const codeKey = (code: string) => ({ pk: `WAITCODE#${code}`, sk: 'CODE' });

/** When the sweeper must look at the entry: its offer's expiry while it is offered; null otherwise. */
const lapseDue = (e: WaitlistEntry | undefined) => (e?.status === 'offered' && e.offer ? e.offer.expiresAt : null);

/**
 * The steps that write an entry as it is after a change: new (its code must be free), or replaced
 * at the version read; with its code lookup's copy, and the offer-lapse sweep item that follows
 * its offer (noShowSweep.ts).
 */
export function entrySteps(companyId: number, prev: WaitlistEntry | undefined, next: WaitlistEntry): Step[] {
  const lookup = { ...codeKey(next.code), entity: 'WAITLIST_CODE', companyId, entryId: next.id, entry: next };
  const entry = prev
    ? [entryEntity.versionedPutStep(companyId, next, prev.version), putStep(lookup)]
    : [
        locationExistsStep(companyId, next.locationId),
        entryEntity.newItemStep(companyId, next),
        putNewStep(lookup, () => new WaitlistCodeTaken()),
      ];
  return [...entry, ...sweepSteps(companyId, next.id, lapseDue(prev), lapseDue(next), offerLapseSweep)];
}

/** One change of an entry: the entry, the table days its offer holds or frees, its event. */
export interface WaitlistWrite {
  prev?: WaitlistEntry;
  next: WaitlistEntry;
  /** Table days put back at the version read (an offer placing its hold). */
  tableDays?: TableDayWrite[];
  /** The offer whose hold is dropped without reading (expired, declined, left). */
  release?: WaitlistOffer;
  events: DomainEvent[];
}

/** The steps that drop an offer's hold from its table days without reading them. */
const releaseSteps = (companyId: number, offer: WaitlistOffer): Step[] =>
  offer.tableIds.flatMap((tableId) =>
    offer.holdDates.map((date) => tableDays.releaseStep(companyId, tableId, date, offer.bookingId)),
  );

/**
 * The steps of one change of an entry (those `waitlist.write` commits): the entry, its table days,
 * the released hold, its events. Another transaction may carry them (an offer that moves bookings
 * writes them in the `also` of the moved bookings' transaction, bookingWrite.ts).
 */
export const waitlistSteps = (companyId: number, w: WaitlistWrite): Step[] => [
  ...entrySteps(companyId, w.prev, w.next),
  ...(w.tableDays ?? []).map((day) => tableDays.writeStep(companyId, day)),
  ...(w.release ? releaseSteps(companyId, w.release) : []),
  ...w.events.map(outboxStep),
];

export interface WaitlistListQuery extends PageRequest {
  locationId?: number | undefined;
  date?: string | undefined;
  status?: WaitlistStatus | undefined;
  /** The moment (ISO) an offer's lapse is judged at: a lapsed offer is expired, whatever is stored yet. */
  now: string;
}

/** The entries with `status` at `now`: an offer whose `expiresAt` has passed counts as expired. */
function statusFilter(status: WaitlistStatus, now: string): Condition {
  const names = { '#status': 'status', '#offer': 'offer', '#expiresAt': 'expiresAt' };
  if (status === 'offered')
    return {
      expression: '#status = :offered AND #offer.#expiresAt > :now',
      names,
      values: { ':offered': 'offered', ':now': now },
    };
  if (status === 'expired')
    return {
      expression: '#status = :expired OR (#status = :offered AND #offer.#expiresAt <= :now)',
      names,
      values: { ':offered': 'offered', ':expired': 'expired', ':now': now },
    };
  return { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': status } };
}

export const waitlist = {
  /** The entry, or undefined (also another company's): 1 GetItem. */
  get: entryEntity.get,

  /** An entry by its code, for the public operations that know no company: 1 GetItem (the lookup carries the entry). */
  async findByCode(code: string): Promise<{ companyId: number; entry: WaitlistEntry } | undefined> {
    const lookup = await getItem(codeKey(code));
    return (
      lookup && {
        companyId: lookup.companyId as number,
        entry: entryEntity.from(lookup.entry as Record<string, unknown>),
      }
    );
  },

  /**
   * One page of entries by desired date, then joining order: one Query per page of the location's
   * entries (or the company's), the date as the key's prefix and the status as a filter (a
   * filtered page may be short while `nextCursor` goes on).
   */
  async list(companyId: number, q: WaitlistListQuery): Promise<Page<WaitlistEntry>> {
    const span = {
      index: q.locationId === undefined ? ('gsi2' as const) : ('gsi1' as const),
      partition: q.locationId === undefined ? companyPartition(companyId) : locationPartition(companyId, q.locationId),
      ...(q.date ? { range: { op: 'begins_with' as const, value: `${q.date}#` } } : {}),
      ...(q.status ? { filter: statusFilter(q.status, q.now) } : {}),
    };
    return logPage(await readLog(span, q), entryEntity.from);
  },

  /**
   * The offers that hold tables now at the location for entries of `from` to `to` (desired dates,
   * inclusive; an offer is on its entry's date): one Query of gsi1, the lapse judged at `now`.
   */
  async offeredBetween(
    companyId: number,
    locationId: number,
    from: string,
    to: string,
    now: string,
  ): Promise<WaitlistOffer[]> {
    const span = {
      index: 'gsi1' as const,
      partition: locationPartition(companyId, locationId),
      range: { op: 'between' as const, low: `${from}#`, high: `${to}#~` },
      filter: statusFilter('offered', now),
    };
    return (await queryAll(span, MAX_ENTRIES_AROUND)).map((item) => entryEntity.from(item).offer!);
  },

  /** The entries whose offers lapsed by `nowMs`, in the UTC hours from `sinceMs` on: one Query per shard of each hour (noShowSweep.ts). */
  async lapsedOffers(sinceMs: number, nowMs: number): Promise<{ companyId: number; entryId: string }[]> {
    return (await dueSweepItems(offerLapseSweep, sinceMs, nowMs)).map((d) => ({
      companyId: d.companyId,
      entryId: d.id,
    }));
  },

  /** Writes the change as one transaction (404 for a location gone, 409 when the entry or a table day changed since read). */
  async write(companyId: number, w: WaitlistWrite): Promise<void> {
    await transact(waitlistSteps(companyId, w));
  },
};
