/**
 * Guest users: the guest item, one uniqueness item per email and per phone (a company has one guest
 * per contact), one search-index item per search token, and per-location booking history items.
 *
 *   guest          pk C#<cid>  sk GUEST#<id:12>
 *   search token   pk C#<cid>  sk GUEST#<id:12>#T#<token>      gsi1 C#<cid>#GS#<token's first 2 chars> / <token>#<id:12>
 *   history        pk C#<cid>  sk GUEST#<id:12>#H#<locationId:12>
 *   contact        pk C#<cid>  sk GUESTCONTACT#E#<email> | GUESTCONTACT#P#<e164>
 *
 * A search page is one Query of gsi1 with begins_with; each token item carries the guest's summary
 * and all its tokens, so no guest item is read back and a guest matching by two tokens is listed
 * once (at the first of them in index order), whatever the page boundaries.
 */
import { Type, type Static } from '../schemas/typebox';
import { AppError, notFound } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { readTogether, type Item } from './batch';
import { GuestHistoryView, GuestView } from '../schemas/guests';
import { companyKey, defineEntity, extendView } from './entity';
import { keys } from './keys';
import { locationEntity } from './locations';
import { outboxStep } from './outbox';
import type { PageRequest, QuerySpan } from './paging';
import { searchTokens, tokenFields, tokenItems, tokenSortKey, type Visible } from './tokenSearch';
import { transact, updateStep, type Step } from './transact';

/** A guest as stored and shown (the name may be null: a create needs only an email or a phone, docs/guests.md): declared by GuestView. */
export type Guest = Static<typeof GuestView>;

/** A guest's bookings at one location, as answered (kept by the bookings code through guestHistoryStep). */
export type GuestHistory = Static<typeof GuestHistoryView>;

/** What a booking change adds to a guest's history at a location: counter deltas, the visit time. */
export interface GuestHistoryChange {
  bookings?: number;
  noShows?: number;
  cancellations?: number;
  lastVisitAt?: string;
}

/** One contact of a guest: its email or its phone. */
type ContactRef = { email: string } | { phone: string };
/** The item that makes a contact unique in the company: the guest that has it (and the one contact it is for). */
const GuestContact = Type.Object({
  guestId: Type.Integer(),
  email: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String()),
});
/** A search-index item: the guest, one of its tokens, and all of them in index order. */
const SearchToken = extendView(GuestView, tokenFields);
type SearchToken = Static<typeof SearchToken>;
/** A guest's history at a location as stored: counters appear as bookings first add to them. */
const HistoryItem = Type.Object({
  guestId: Type.Integer(),
  locationId: Type.Integer(),
  bookingCount: Type.Optional(Type.Integer()),
  lastVisitAt: Type.Optional(Type.String()),
  noShowCount: Type.Optional(Type.Integer()),
  cancellationCount: Type.Optional(Type.Integer()),
});

const guestSk = (id: number) => `GUEST#${keys.pad(id)}`;

/** Tokens sharing their first two characters share a partition of gsi1 (queries are at least 2 long). */
const searchPartition = (companyId: number, tokenOrPrefix: string) =>
  `${keys.company(companyId)}#GS#${Array.from(tokenOrPrefix).slice(0, 2).join('')}`;

const guestEntity = defineEntity({
  name: 'GUEST',
  label: 'guest',
  key: (companyId: number, id: number) => companyKey(companyId, guestSk(id)),
  schema: GuestView,
  keyOf: (companyId, g) => [companyId, g.id] as const,
});

const contactEntity = defineEntity({
  name: 'GUEST_CONTACT',
  label: 'guest contact',
  key: (companyId: number, ref: ContactRef) =>
    companyKey(companyId, 'email' in ref ? `GUESTCONTACT#E#${ref.email}` : `GUESTCONTACT#P#${ref.phone}`),
  schema: GuestContact,
  keyOf: (companyId, c) => [companyId, c.email !== undefined ? { email: c.email } : { phone: c.phone! }] as const,
});

const searchEntity = defineEntity({
  name: 'GUEST_SEARCH',
  label: 'guest',
  key: (companyId: number, guestId: number, token: string) => companyKey(companyId, `${guestSk(guestId)}#T#${token}`),
  schema: SearchToken,
  keyOf: (companyId, t) => [companyId, t.id, t.token] as const,
  indexes: (companyId, t) => ({ gsi1pk: searchPartition(companyId, t.token), gsi1sk: tokenSortKey(t.token, t.id) }),
});

const historyEntity = defineEntity({
  name: 'GUEST_HISTORY',
  label: 'guest history',
  key: (companyId: number, guestId: number, locationId: number) =>
    companyKey(companyId, `${guestSk(guestId)}#H#${keys.pad(locationId)}`),
  schema: HistoryItem,
  keyOf: (companyId, h) => [companyId, h.guestId, h.locationId] as const,
});

/** The contacts a guest has (email first), or a lookup asks for. */
const contactRefs = (c: Pick<Guest, 'email' | 'phone'>): ContactRef[] => [
  ...(c.email === null ? [] : [{ email: c.email }]),
  ...(c.phone === null ? [] : [{ phone: c.phone }]),
];

const searchTokensOf = (g: Guest, tokens: readonly string[]): SearchToken[] => tokenItems(g, tokens);

/** Every item a guest is stored as (the create transaction writes exactly these; bulk loaders reuse them). */
export function guestItems(companyId: number, g: Guest, tokens: readonly string[]): Item[] {
  return [
    guestEntity.item(companyId, g),
    ...contactRefs(g).map((ref) => contactEntity.item(companyId, { guestId: g.id, ...ref })),
    ...searchTokensOf(g, tokens).map((t) => searchEntity.item(companyId, t)),
  ];
}

/**
 * A transaction step for the bookings code: adds the change to the guest's history at the location
 * (counters by ADD, so concurrent bookings never lose a count; the item appears on first use).
 * `lastVisitAt` is set as given: record visits as they happen.
 */
export function guestHistoryStep(
  companyId: number,
  guestId: number,
  locationId: number,
  change: GuestHistoryChange,
): Step {
  const deltas: [string, number | undefined][] = [
    ['bookingCount', change.bookings],
    ['noShowCount', change.noShows],
    ['cancellationCount', change.cancellations],
  ];
  const counters = deltas.filter((d): d is [string, number] => d[1] !== undefined && d[1] !== 0);
  if (counters.length === 0 && change.lastVisitAt === undefined)
    throw new Error('guestHistoryStep: the change is empty');
  const visit = change.lastVisitAt === undefined ? {} : { lastVisitAt: change.lastVisitAt };
  return updateStep(
    historyEntity.key(companyId, guestId, locationId),
    { entity: historyEntity.name, companyId, guestId, locationId, ...visit },
    { add: Object.fromEntries(counters) },
  );
}

/** A contact of the new guest already belongs to a guest: the create becomes a read of that guest. */
export class ContactTaken extends AppError {
  constructor() {
    super('CONFLICT', 'A guest with this email or phone exists');
  }
}

/** Attempts of a create that keeps meeting concurrent transactions on the same contact. */
const CREATE_ATTEMPTS = 4;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, 2 ** attempt * 10 + Math.random() * 20));

/** The index items of the tokens that start with `prefix`, in index order. */
const searchSpan = (companyId: number, prefix: string): QuerySpan => ({
  index: 'gsi1',
  partition: searchPartition(companyId, prefix),
  range: { op: 'begins_with', value: prefix },
});

/** The guests among `guestIds` with history at one of the locations: one round trip (BatchGetItem per 100 keys). */
async function withHistoryAt(
  companyId: number,
  locationIds: readonly number[],
  guestIds: readonly number[],
): Promise<Set<number>> {
  const keys = guestIds.flatMap((guestId) =>
    locationIds.map((locationId) => [companyId, guestId, locationId] as [number, number, number]),
  );
  if (keys.length === 0) return new Set();
  return new Set((await historyEntity.getMany(keys)).map((h) => h.guestId));
}

export const guests = {
  get: (companyId: number, id: number, consistent = false): Promise<Guest | undefined> =>
    guestEntity.getWith({ consistent }, companyId, id),
  /** A read of the guest, to send with others in one round trip (a booking's create reads it with the location). */
  read: guestEntity.read,

  /**
   * Adds the guest with its contacts, search tokens and event in one transaction, unless its email
   * or phone already belongs to a guest of the company: then nothing is written and that guest is
   * returned (the email's guest when email and phone belong to different guests). Concurrent
   * identical creates make one guest: the losers find the winner's.
   */
  async add(
    companyId: number,
    g: Guest,
    tokens: readonly string[],
    event: DomainEvent,
  ): Promise<{ guest: Guest; created: boolean }> {
    const steps = guests.newSteps(companyId, g, tokens, event);
    for (let attempt = 1; ; attempt++) {
      try {
        await transact(steps);
        return { guest: g, created: true };
      } catch (err) {
        if (err instanceof ContactTaken) return { guest: await guests.byContact(companyId, g), created: false };
        // A concurrent transaction on the same contact items: retry, and see its outcome.
        if (!(err instanceof AppError && err.code === 'CONFLICT') || attempt === CREATE_ATTEMPTS) throw err;
        await pause(attempt);
      }
    }
  },

  /**
   * The steps that store a new guest, for a transaction of its own (`add`) or of another write (a
   * guest's first online booking, docs/online-booking.md): its items and event. A contact another
   * guest has answers ContactTaken, and the write is not made.
   */
  newSteps(companyId: number, g: Guest, tokens: readonly string[], event: DomainEvent): Step[] {
    return [
      guestEntity.newItemStep(companyId, g),
      ...contactRefs(g).map((ref) =>
        contactEntity.newItemStep(companyId, { guestId: g.id, ...ref }, () => new ContactTaken()),
      ),
      ...searchTokensOf(g, tokens).map((t) => searchEntity.newItemStep(companyId, t)),
      outboxStep(event),
    ];
  },

  /** The id of the guest that owns the email, else of the one that owns the phone, if any (strongly consistent reads). */
  async ownerOf(companyId: number, contact: Pick<Guest, 'email' | 'phone'>): Promise<number | undefined> {
    const owners = await Promise.all(
      contactRefs(contact).map((ref) => contactEntity.getWith({ consistent: true }, companyId, ref)),
    );
    return owners.find((o) => o !== undefined)?.guestId;
  },

  /** The guest that owns the email, else the one that owns the phone (strongly consistent reads). */
  async byContact(companyId: number, contact: Pick<Guest, 'email' | 'phone'>): Promise<Guest> {
    const owner = await guests.ownerOf(companyId, contact);
    const guest = owner === undefined ? undefined : await guests.get(companyId, owner, true);
    if (!guest) throw new Error('a guest contact item names no guest');
    return guest;
  },

  /**
   * Guests whose tokens start with `prefix` (already normalized), in index order, one Query per
   * page. `total` counts the guests listed up to this page: exact once nextCursor is null.
   * `page` N without a cursor walks the N - 1 pages before it. With `locationIds`, only guests
   * with history at one of them are listed (each page reads their history items too).
   */
  async search(
    companyId: number,
    prefix: string,
    req: PageRequest,
    locationIds?: readonly number[],
  ): Promise<Page<Guest>> {
    const visible: Visible | undefined = locationIds && ((ids) => withHistoryAt(companyId, locationIds, ids));
    return searchTokens(searchSpan(companyId, prefix), prefix, req, guestEntity.from, visible);
  },

  /** Whether the guest has history (a booking) at one of the locations. */
  hasHistoryAt: async (companyId: number, guestId: number, locationIds: readonly number[]): Promise<boolean> =>
    (await withHistoryAt(companyId, locationIds, [guestId])).size > 0,

  /**
   * The guests' history at the location, absent items as zeros: one round trip, which also reads
   * the location so that a location the company does not have answers 404.
   */
  async historyAt(
    companyId: number,
    locationId: number,
    guestIds: readonly number[],
  ): Promise<Map<number, GuestHistory>> {
    const { location, history } = await readTogether({
      location: locationEntity.read(companyId, locationId),
      history: historyEntity.readMany(guestIds.map((id) => [companyId, id, locationId])),
    });
    if (!location) throw notFound(`Location ${locationId}`);
    const stored = new Map(history.map((h) => [h.guestId, h]));
    return new Map(
      guestIds.map((id) => {
        const h = stored.get(id);
        const entry: GuestHistory = {
          locationId,
          bookingCount: Number(h?.bookingCount ?? 0),
          lastVisitAt: h?.lastVisitAt ?? null,
          noShowCount: Number(h?.noShowCount ?? 0),
          cancellationCount: Number(h?.cancellationCount ?? 0),
        };
        return [id, entry];
      }),
    );
  },
};
