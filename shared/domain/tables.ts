/**
 * Tables of a location: capacity bounds and which other tables each can be pushed together with.
 * "Combinable" is symmetric: naming B in A's list puts A in B's, in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import { locations } from '../data/locations';
import { diningTables, type DiningTable, type StoredTable, type TableWrite } from '../data/tables';
import { AppError, notFound, unprocessable, validationFailed, type FieldProblem } from '../errors';
import { newEvent, type DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { MAX_COMBINABLE, type CreateTableBody, type ListTablesQuery, type UpdateTableBody } from '../schemas/tables';
import { assertLocationAllowed } from './access';
import { changedFields } from './changes';
import { bookingsInUse, inUseConflict } from './inUse';

/**
 * A list under a location's path. An empty page may mean the location is not the company's: then
 * 404. A page with items proves the location exists, so the common case costs one Query.
 */
export async function listAtLocation<T>(
  principal: Principal,
  locationId: number,
  list: () => Promise<Page<T>>,
): Promise<Page<T>> {
  assertLocationAllowed(principal, locationId);
  const page = await list();
  if (page.items.length === 0 && !(await locations.get(principal.companyId, locationId)))
    throw notFound(`Location ${locationId}`);
  return page;
}

/** min ≤ max; the problem is reported on the field the request changed. */
function assertCapacities(t: DiningTable, input: { maxCapacity?: number }): void {
  if (t.minCapacity <= t.maxCapacity) return;
  throw validationFailed('minCapacity must not exceed maxCapacity', [
    input.maxCapacity !== undefined
      ? { path: '/maxCapacity', message: `must be at least minCapacity (${t.minCapacity})` }
      : { path: '/minCapacity', message: `must not exceed maxCapacity (${t.maxCapacity})` },
  ]);
}

const sorted = (ids: string[]) => [...ids].sort();

interface PartnerChange {
  added: string[];
  removed: string[];
  /** The request's `combinableWith`: error details name its indexes. */
  requested: string[];
  now: string;
}

/**
 * The partner tables whose lists change when `table` gains `added` and loses `removed` partners:
 * read in one BatchGetItem, each written back at the version read, with its event. Unknown added
 * ids answer 404 with their places in the request; a partner list may not outgrow the bound.
 */
async function partnerChanges(
  companyId: number,
  table: DiningTable,
  { added, removed, requested, now }: PartnerChange,
): Promise<{ writes: TableWrite[]; events: DomainEvent[] }> {
  const found = new Map(
    (await diningTables.getMany(companyId, table.locationId, [...added, ...removed])).map((t) => [t.id, t]),
  );
  // Problems are reported in the request's order, each at its index there.
  const problems = (failing: (id: string) => boolean, message: string): FieldProblem[] =>
    requested.flatMap((id, i) =>
      added.includes(id) && failing(id) ? [{ path: `/combinableWith/${i}`, message }] : [],
    );

  const unknown = problems((id) => !found.has(id), 'no table with this id at this location');
  if (unknown.length)
    throw new AppError('NOT_FOUND', 'Some combinable tables were not found at this location', unknown);
  const full = problems(
    (id) => found.get(id)!.combinableWith.length >= MAX_COMBINABLE,
    `that table is already combinable with ${MAX_COMBINABLE} tables`,
  );
  if (full.length) throw unprocessable('Some tables cannot take another combinable table', full);

  // A removed partner missing here was deleted meanwhile; its deletion changed this table too, so the write fails on the version (409).
  const partners = [...added, ...removed].flatMap((id) => found.get(id) ?? []);
  const writes = partners.map((p) => {
    const combinableWith = added.includes(p.id)
      ? sorted([...p.combinableWith, table.id])
      : p.combinableWith.filter((id) => id !== table.id);
    return { next: { ...p, combinableWith, version: p.version + 1, updatedAt: now }, expectedVersion: p.version };
  });
  const events = writes.map(({ next }) =>
    newEvent(companyId, 'table.updated', next.id, { ...next }, { combinableWith: next.combinableWith }),
  );
  return { writes, events };
}

async function current(principal: Principal, locationId: number, id: string) {
  assertLocationAllowed(principal, locationId);
  const found = await diningTables.get(principal.companyId, locationId, id);
  if (!found) throw notFound(`Table ${id}`);
  return found;
}

/** The location's tables, by name. */
export function listTables(
  principal: Principal,
  locationId: number,
  query: ListTablesQuery,
): Promise<Page<DiningTable>> {
  return listAtLocation(principal, locationId, () => diningTables.list(principal.companyId, locationId, query));
}

export async function getTable(principal: Principal, locationId: number, id: string): Promise<DiningTable> {
  return (await current(principal, locationId, id)).table;
}

export async function createTable(
  principal: Principal,
  locationId: number,
  input: CreateTableBody,
): Promise<DiningTable> {
  assertLocationAllowed(principal, locationId);
  const now = new Date().toISOString();
  const table: DiningTable = {
    id: randomUUID(),
    locationId,
    name: input.name,
    minCapacity: input.minCapacity,
    maxCapacity: input.maxCapacity,
    combinableWith: sorted(input.combinableWith ?? []),
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  assertCapacities(table, input);
  const { companyId } = principal;
  const partners = await partnerChanges(companyId, table, {
    added: table.combinableWith,
    removed: [],
    requested: input.combinableWith ?? [],
    now,
  });
  await diningTables.create(companyId, locationId, [table], partners.writes, [
    newEvent(companyId, 'table.created', table.id, { ...table }),
    ...partners.events,
  ]);
  return table;
}

/** Changes the fields given; `combinableWith` replaces the list, and the partners' lists follow. No change, no write. */
export async function updateTable(
  principal: Principal,
  locationId: number,
  id: string,
  input: UpdateTableBody,
): Promise<DiningTable> {
  const { table: prev } = await current(principal, locationId, id);
  const selfAt = input.combinableWith?.indexOf(id) ?? -1;
  if (selfAt >= 0)
    throw validationFailed('A table cannot be combined with itself', [
      { path: `/combinableWith/${selfAt}`, message: 'is this table' },
    ]);
  const now = new Date().toISOString();
  const next: DiningTable = {
    ...prev,
    ...input,
    combinableWith: input.combinableWith ? sorted(input.combinableWith) : prev.combinableWith,
    version: prev.version + 1,
    updatedAt: now,
  };
  assertCapacities(next, input);
  const changes = changedFields(prev, next, ['name', 'minCapacity', 'maxCapacity', 'combinableWith']);
  if (Object.keys(changes).length === 0) return prev;

  const { companyId } = principal;
  const added = next.combinableWith.filter((p) => !prev.combinableWith.includes(p));
  const removed = prev.combinableWith.filter((p) => !next.combinableWith.includes(p));
  const partners = await partnerChanges(companyId, next, {
    added,
    removed,
    requested: input.combinableWith ?? [],
    now,
  });
  await diningTables.update(companyId, prev, next, partners.writes, [
    newEvent(companyId, 'table.updated', id, { ...next }, changes),
    ...partners.events,
  ]);
  return next;
}

/**
 * 409 naming what keeps the table: the booking groups that include it, and the bookings that use
 * it (their count is kept on the table; the first are read to name them). Undefined when nothing does.
 */
async function tableInUse(
  companyId: number,
  { table, groupIds, bookingsUsing }: StoredTable,
): Promise<AppError | undefined> {
  if (groupIds.length === 0 && bookingsUsing === 0) return undefined;
  const groups = groupIds.length ? [`it is in booking groups ${groupIds.join(', ')}: remove it from them`] : [];
  const inUse =
    bookingsUsing > 0 ? await bookingsInUse(companyId, { by: 'table', tableId: table.id }) : { found: [], more: false };
  return inUseConflict(`Table ${table.name} (${table.id})`, groups, {
    count: bookingsUsing,
    inUse,
    listing: `/api/v1/bookings?tableId=${table.id}`,
  });
}

/**
 * Deletes a table that no booking group includes and no booking uses (409 naming them otherwise);
 * its partners drop it. Answers what was deleted. A booking or a group that takes the table
 * between the read and the delete fails the delete's condition: then the refusal names it too.
 */
export async function deleteTable(principal: Principal, locationId: number, id: string): Promise<DiningTable> {
  const { companyId } = principal;
  const stored = await current(principal, locationId, id);
  const refused = await tableInUse(companyId, stored);
  if (refused) throw refused;
  const { table } = stored;
  const partners = await partnerChanges(companyId, table, {
    added: [],
    removed: table.combinableWith,
    requested: [],
    now: new Date().toISOString(),
  });
  try {
    await diningTables.remove(companyId, table, partners.writes, [
      newEvent(companyId, 'table.deleted', id, { ...table }),
      ...partners.events,
    ]);
  } catch (err) {
    const now =
      err instanceof AppError && err.code === 'CONFLICT'
        ? await diningTables.get(companyId, locationId, id)
        : undefined;
    throw (now && (await tableInUse(companyId, now))) ?? err;
  }
  return table;
}
