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
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { AppError, notFound, validationFailed } from '../errors';
import type { DomainEvent } from '../events/catalog';
import { Page } from '../page';
import { getItems, readItems, type ItemKey, type ReadRequest } from './batch';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { locationExistsStep } from './locations';
import type { PageRequest } from './paging';
import { transact, type Step } from './transact';
import { outboxStep } from './outbox';

export interface Guest {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A guest's bookings at one location (kept by the bookings code through guestHistoryStep). */
export interface GuestHistory {
  locationId: number;
  bookingCount: number;
  lastVisitAt: string | null;
  noShowCount: number;
  cancellationCount: number;
}

/** What a booking change adds to a guest's history at a location: counter deltas, the visit time. */
export interface GuestHistoryChange {
  bookings?: number;
  noShows?: number;
  cancellations?: number;
  lastVisitAt?: string;
}

type Item = Record<string, unknown>;
type Key = Record<string, string>;

const fields = ['id', 'name', 'email', 'phone', 'createdAt', 'updatedAt'] as const;
const toGuest = (i: Item) => pick<Guest>(i, fields);

const guestSk = (id: number) => `GUEST#${keys.pad(id)}`;
const contactSk = (kind: 'E' | 'P', value: string) => `GUESTCONTACT#${kind}#${value}`;
const historySk = (guestId: number, locationId: number) => `${guestSk(guestId)}#H#${keys.pad(locationId)}`;

/** Tokens sharing their first two characters share a partition of gsi1 (queries are at least 2 long). */
const searchPartition = (companyId: number, tokenOrPrefix: string) => `${keys.company(companyId)}#GS#${Array.from(tokenOrPrefix).slice(0, 2).join('')}`;
const searchSortKey = (token: string, guestId: number) => `${token}#${keys.pad(guestId)}`;
const SEARCH_KEY_NAMES = ['pk', 'sk', 'gsi1pk', 'gsi1sk'] as const;

/** DynamoDB orders string keys by their UTF-8 bytes. */
const byKeyOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

function guestItem(companyId: number, g: Guest): Item {
  return { pk: keys.company(companyId), sk: guestSk(g.id), entity: 'GUEST', companyId, ...g };
}

/** The uniqueness items' keys: one per contact the guest has. */
function contactKeys(companyId: number, contact: Pick<Guest, 'email' | 'phone'>): Key[] {
  const sks = [contact.email === null ? null : contactSk('E', contact.email), contact.phone === null ? null : contactSk('P', contact.phone)];
  return sks.filter((sk): sk is string => sk !== null).map((sk) => ({ pk: keys.company(companyId), sk }));
}

const contactItems = (companyId: number, g: Guest): Item[] =>
  contactKeys(companyId, g).map((key) => ({ ...key, entity: 'GUEST_CONTACT', companyId, guestId: g.id }));

function searchItems(companyId: number, g: Guest, tokens: readonly string[]): Item[] {
  const ordered = [...tokens].sort((a, b) => byKeyOrder(searchSortKey(a, g.id), searchSortKey(b, g.id)));
  return ordered.map((token) => ({
    pk: keys.company(companyId),
    sk: `${guestSk(g.id)}#T#${token}`,
    gsi1pk: searchPartition(companyId, token),
    gsi1sk: searchSortKey(token, g.id),
    entity: 'GUEST_SEARCH',
    companyId,
    ...g,
    token,
    tokens: ordered,
  }));
}

/** Every item a guest is stored as (the create transaction writes exactly these; bulk loaders reuse them). */
export function guestItems(companyId: number, g: Guest, tokens: readonly string[]): Item[] {
  return [guestItem(companyId, g), ...contactItems(companyId, g), ...searchItems(companyId, g, tokens)];
}

/**
 * A transaction step for the bookings code: adds the change to the guest's history at the location
 * (counters by ADD, so concurrent bookings never lose a count; the item appears on first use).
 * `lastVisitAt` is set as given: record visits as they happen.
 */
export function guestHistoryStep(companyId: number, guestId: number, locationId: number, change: GuestHistoryChange): Step {
  const deltas: [string, number | undefined][] = [
    ['bookingCount', change.bookings],
    ['noShowCount', change.noShows],
    ['cancellationCount', change.cancellations],
  ];
  const counters = deltas.filter((d): d is [string, number] => d[1] !== undefined && d[1] !== 0);
  if (counters.length === 0 && change.lastVisitAt === undefined) throw new Error('guestHistoryStep: the change is empty');
  const values: Item = { ':e': 'GUEST_HISTORY', ':c': companyId, ':g': guestId, ':l': locationId };
  const set = ['entity = :e', 'companyId = :c', 'guestId = :g', 'locationId = :l'];
  if (change.lastVisitAt !== undefined) {
    set.push('lastVisitAt = :v');
    values[':v'] = change.lastVisitAt;
  }
  const add = counters.map(([name, delta], i) => {
    values[`:d${i}`] = delta;
    return `${name} :d${i}`;
  });
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: { pk: keys.company(companyId), sk: historySk(guestId, locationId) },
        UpdateExpression: `SET ${set.join(', ')}${add.length ? ` ADD ${add.join(', ')}` : ''}`,
        ExpressionAttributeValues: values,
      },
    },
  };
}

/** A contact of the new guest already belongs to a guest: the create becomes a read of that guest. */
class ContactTaken extends AppError {
  constructor() {
    super('CONFLICT', 'A guest with this email or phone exists');
  }
}

/** Attempts of a create that keeps meeting concurrent transactions on the same contact. */
const CREATE_ATTEMPTS = 4;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, 2 ** attempt * 10 + Math.random() * 20));

interface SearchStart {
  page: number;
  key: Key | undefined;
  /** Guests listed on the pages before this one. */
  found: number;
}

const encodeCursor = (s: SearchStart) => Buffer.from(JSON.stringify({ p: s.page, k: s.key, n: s.found })).toString('base64url');

function decodeCursor(cursor: string, companyId: number, prefix: string): SearchStart {
  const invalid = () => validationFailed('Invalid cursor', [{ path: '/cursor', message: 'is not a cursor of this search' }]);
  let parsed: { p?: unknown; k?: unknown; n?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const key = parsed.k as Key | null | undefined;
  const ok =
    Number.isInteger(parsed.p) &&
    (parsed.p as number) >= 2 &&
    Number.isInteger(parsed.n) &&
    (parsed.n as number) >= 0 &&
    typeof key === 'object' &&
    key !== null &&
    Object.keys(key).length === SEARCH_KEY_NAMES.length &&
    SEARCH_KEY_NAMES.every((n) => typeof key[n] === 'string') &&
    key.pk === keys.company(companyId) &&
    key.gsi1pk === searchPartition(companyId, prefix) &&
    key.gsi1sk!.startsWith(prefix);
  if (!ok) throw invalid();
  return { page: parsed.p as number, key: key!, found: parsed.n as number };
}

const keyOf = (item: Item): Key => Object.fromEntries(SEARCH_KEY_NAMES.map((n) => [n, String(item[n])]));

/** The guest is listed at the first of its tokens (in index order) that the prefix matches. */
const listsGuest = (item: Item, prefix: string) => (item.tokens as string[]).find((t) => t.startsWith(prefix)) === item.token;

/**
 * One page: one Query reading ahead (2 × limit + 1 index items) so that guests found twice still
 * leave a full page. The next page starts after the last item this page consumed.
 */
async function searchPage(companyId: number, prefix: string, limit: number, start: Key | undefined): Promise<{ guests: Guest[]; next: Key | undefined }> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :q)',
      ExpressionAttributeValues: { ':p': searchPartition(companyId, prefix), ':q': prefix },
      ExclusiveStartKey: start,
      Limit: 2 * limit + 1,
    }),
  );
  const items = out.Items ?? [];
  const guests: Guest[] = [];
  for (const [i, item] of items.entries()) {
    if (!listsGuest(item, prefix)) continue;
    if (guests.length === limit) return { guests, next: keyOf(items[i - 1]!) };
    guests.push(toGuest(item));
  }
  return { guests, next: out.LastEvaluatedKey as Key | undefined };
}

export const guests = {
  async get(companyId: number, id: number, consistent = false): Promise<Guest | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: keys.company(companyId), sk: guestSk(id) }, ConsistentRead: consistent }));
      return out.Item ? toGuest(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** A read of the guest, to send with others in one round trip (a booking's create reads it with the location). */
  read(companyId: number, id: number): ReadRequest<Guest | undefined> {
    const request = readItems([{ pk: keys.company(companyId), sk: guestSk(id) }]);
    return { keys: request.keys, answer: (found) => request.answer(found).map((i) => i && toGuest(i))[0] };
  },

  /**
   * Adds the guest with its contacts, search tokens and event in one transaction, unless its email
   * or phone already belongs to a guest of the company: then nothing is written and that guest is
   * returned (the email's guest when email and phone belong to different guests). Concurrent
   * identical creates make one guest: the losers find the winner's.
   */
  async add(companyId: number, g: Guest, tokens: readonly string[], event: DomainEvent): Promise<Guest> {
    const put = (item: Item): Step['item'] => ({ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } });
    const steps: Step[] = [
      { item: put(guestItem(companyId, g)) },
      ...contactItems(companyId, g).map((item) => ({ item: put(item), onConditionFailed: () => new ContactTaken() })),
      ...searchItems(companyId, g, tokens).map((item) => ({ item: put(item) })),
      outboxStep(event),
    ];
    for (let attempt = 1; ; attempt++) {
      try {
        await transact(steps);
        return g;
      } catch (err) {
        if (err instanceof ContactTaken) return guests.byContact(companyId, g);
        // A concurrent transaction on the same contact items: retry, and see its outcome.
        if (!(err instanceof AppError && err.code === 'CONFLICT') || attempt === CREATE_ATTEMPTS) throw err;
        await pause(attempt);
      }
    }
  },

  /** The guest that owns the email, else the one that owns the phone (strongly consistent reads). */
  async byContact(companyId: number, contact: Pick<Guest, 'email' | 'phone'>): Promise<Guest> {
    try {
      const owners = await Promise.all(
        contactKeys(companyId, contact).map((Key) => db().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }))),
      );
      const owner = owners.find((o) => o.Item)?.Item;
      const guest = owner ? await guests.get(companyId, owner.guestId as number, true) : undefined;
      if (!guest) throw new Error('a guest contact item names no guest');
      return guest;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /**
   * Guests whose tokens start with `prefix` (already normalized), in index order, one Query per
   * page. `total` counts the guests listed up to this page: exact once nextCursor is null.
   * `page` N without a cursor walks the N - 1 pages before it.
   */
  async search(companyId: number, prefix: string, req: PageRequest): Promise<Page<Guest>> {
    try {
      let start: SearchStart = req.cursor ? decodeCursor(req.cursor, companyId, prefix) : { page: 1, key: undefined, found: 0 };
      const target = req.cursor ? start.page : req.page;
      for (;;) {
        const { guests: listed, next } = await searchPage(companyId, prefix, req.limit, start.key);
        const found = start.found + listed.length;
        const atTarget = start.page === target;
        if (atTarget || !next) {
          const items = atTarget ? listed : [];
          const more = atTarget && next !== undefined;
          return new Page(items, {
            page: target,
            limit: req.limit,
            total: found,
            totalPages: more ? start.page + 1 : start.page,
            nextCursor: more ? encodeCursor({ page: target + 1, key: next, found }) : null,
          });
        }
        start = { page: start.page + 1, key: next, found };
      }
    } catch (err) {
      throw toAppError(err);
    }
  },

  /**
   * The guests' history at the location, absent items as zeros: one BatchGetItem, which also reads
   * the location so that a location the company does not have answers 404.
   */
  async historyAt(companyId: number, locationId: number, guestIds: readonly number[]): Promise<Map<number, GuestHistory>> {
    // The location's key, as its existence check names it.
    const locationKey = locationExistsStep(companyId, locationId).item.ConditionCheck!.Key as ItemKey;
    const items = await getItems([locationKey, ...guestIds.map((id) => ({ pk: keys.company(companyId), sk: historySk(id, locationId) }))]);
    if (!items.some((i) => i.sk === locationKey.sk)) throw notFound(`Location ${locationId}`);
    const stored = new Map(items.filter((i) => i.entity === 'GUEST_HISTORY').map((i) => [i.guestId as number, i]));
    return new Map(
      guestIds.map((id) => {
        const h = stored.get(id);
        const history: GuestHistory = {
          locationId,
          bookingCount: Number(h?.bookingCount ?? 0),
          lastVisitAt: (h?.lastVisitAt as string | undefined) ?? null,
          noShowCount: Number(h?.noShowCount ?? 0),
          cancellationCount: Number(h?.cancellationCount ?? 0),
        };
        return [id, history];
      }),
    );
  },
};
