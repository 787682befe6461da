/**
 * The permission catalog, platform-wide (not per company), in one partition:
 *
 *   PERMISSIONS / ID#<id:12>   the permission as the API shows it (+ `version`)
 *   PERMISSIONS / KEY#<key>    its key: unique (put-if-absent), the id it belongs to, and
 *                              `usage`, how many roles and keys name it
 *
 * Roles and API keys name custom permissions inside their own transactions with `usageSteps`,
 * which ADD to `usage` under attribute_exists: that also proves the permission exists. A
 * permission is deleted only while `usage` is 0, a condition of the deleting transaction.
 * Built-in permissions are never counted (they cannot be deleted); which keys are built in is
 * the domain's knowledge, so every write that names permissions is told which ones to count.
 */
import { Type, type Static } from '../schemas/typebox';
import { AppError, conflict, unprocessable, type FieldProblem } from '../errors';
import type { DomainEvent } from '../events/catalog';
import { PermissionView } from '../schemas/access';
import { defineEntity, extendView } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { queryAll } from './paging';
import { deleteStep, transact, updateStep, type Step } from './transact';

/** A permission of the catalog as the API shows it: declared by PermissionView. */
export type Permission = Static<typeof PermissionView>;

/** A permission and the `version` its updates are conditional on (not shown by the API). */
export interface StoredPermission {
  permission: Permission;
  version: number;
}

/** A permission a role or key names, and where the request named it (for the 404's details). */
export interface PermissionRef {
  key: string;
  /** Roles name permissions by id: the key item must still belong to that id. */
  id?: number;
  path: string;
}

/** Whether `usage` counts a permission: true for custom permissions, false for built-ins. */
export type IsCounted = (key: string) => boolean;

const PARTITION = 'PERMISSIONS';
const ID_PREFIX = 'ID#';
/** The catalog is read whole on every list and grant: it is made by internal operators, and this bounds the read. */
const MAX_CATALOG = 10_000;
/** The company argument of the catalog's entities, which belong to no company (it is not stored). */
const CATALOG = 0;

/** A permission as stored: as shown, with the `version` its updates are conditional on. */
const PermissionItem = extendView(PermissionView, { version: Type.Integer() });
type PermissionItem = Static<typeof PermissionItem>;

/** The unique key of a permission, the permission it belongs to, and how many roles and keys name it. */
const PermissionKeyItem = Type.Object({ key: Type.String(), permissionId: Type.Integer(), usage: Type.Integer() });

/** A permission of the catalog, with its version. */
const permissionEntity = defineEntity({
  name: 'PERMISSION',
  label: 'permission',
  platformWide: true,
  key: (id: number) => ({ pk: PARTITION, sk: `${ID_PREFIX}${keys.pad(id)}` }),
  schema: PermissionItem,
  keyOf: (_catalog, p) => [p.id] as const,
});

/** The unique key of a permission and how many roles and keys name it. */
const permissionKeyEntity = defineEntity({
  name: 'PERMISSION_KEY',
  label: 'permission key',
  platformWide: true,
  key: (key: string) => ({ pk: PARTITION, sk: `KEY#${key}` }),
  schema: PermissionKeyItem,
  keyOf: (_catalog, k) => [k.key] as const,
});

const stored = ({ version, ...permission }: PermissionItem): StoredPermission => ({
  permission,
  version,
});

/** One atomic TransactWriteItems holds at most this many items. */
const MAX_TRANSACTION_ITEMS = 100;

/** 404 for permissions a request named that are not in the catalog, one detail per name. */
export const permissionsNotFound = (problems: FieldProblem[]) =>
  new AppError(
    'NOT_FOUND',
    problems.length === 1 ? 'A named permission does not exist' : 'Some named permissions do not exist',
    problems,
  );

/**
 * What this process knows of the catalog: id → key. Ids are never reused and keys never change, so
 * an entry stays true while the permission exists; a deleted one is caught by the conditions of
 * the transaction that names it. A miss reloads the catalog (one Query).
 */
let known: Map<number, string> | undefined;

async function readCatalog(): Promise<Permission[]> {
  const items = await queryAll({ partition: PARTITION, range: { op: 'begins_with', value: ID_PREFIX } }, MAX_CATALOG);
  const found = items.map((i) => stored(permissionEntity.from(i)).permission);
  known = new Map(found.map((p) => [p.id, p.key]));
  return found;
}

/** The steps that count one more (or one fewer) role or key naming each counted permission of `refs`. */
export function usageSteps(refs: readonly PermissionRef[], delta: 1 | -1, counted: IsCounted): Step[] {
  return refs
    .filter((r) => counted(r.key))
    .map((r) =>
      updateStep(
        permissionKeyEntity.key(r.key),
        {},
        {
          add: { usage: delta },
          condition:
            r.id === undefined
              ? { expression: 'attribute_exists(pk)' }
              : { expression: 'permissionId = :id', values: { ':id': r.id } },
          onConditionFailed: () => {
            if (r.id !== undefined) known?.delete(r.id);
            return permissionsNotFound([{ path: r.path, message: `names no permission of the catalog (${r.key})` }]);
          },
        },
      ),
    );
}

/**
 * Runs a transaction that names permissions, refusing it (422) when it would exceed DynamoDB's 100
 * items: only a change that adds and removes very many custom permissions and locations at once can.
 */
export async function transactNaming(steps: Step[]): Promise<void> {
  if (steps.length > MAX_TRANSACTION_ITEMS) {
    throw unprocessable(
      `This change names too many custom permissions and locations for one atomic write (${steps.length} items, at most ${MAX_TRANSACTION_ITEMS}); make it in two steps`,
    );
  }
  await transact(steps);
}

export const permissions = {
  /** The whole catalog (it is small: one Query), by id. */
  list: readCatalog,

  async get(id: number): Promise<StoredPermission | undefined> {
    const found = await permissionEntity.get(id);
    return found && stored(found);
  },

  /**
   * The keys of `ids` that are in the catalog; ids missing from the answer are not. From this
   * process's memory when it knows them all, else from one Query of the catalog.
   */
  async keysOf(ids: readonly number[]): Promise<Map<number, string>> {
    if (!known || ids.some((id) => !known!.has(id))) await readCatalog();
    return new Map(ids.filter((id) => known!.has(id)).map((id) => [id, known!.get(id)!]));
  },

  /**
   * The ids of the permission keys `wanted` that are in the catalog (keys missing from the answer
   * are not). From this process's memory when it knows them all, else from one Query of the
   * catalog: a new company's system roles name the built-ins, which are never deleted.
   */
  async idsOf(wanted: readonly string[]): Promise<Map<string, number>> {
    const lookup = () => new Map([...known!].map(([id, key]) => [key, id]));
    let ids = known ? lookup() : undefined;
    if (!ids || wanted.some((k) => !ids!.has(k))) {
      await readCatalog();
      ids = lookup();
    }
    return new Map(wanted.filter((k) => ids!.has(k)).map((k) => [k, ids!.get(k)!]));
  },

  /** The keys among `wanted` that are not in the catalog; none asked costs no read. */
  async unknownKeys(wanted: readonly string[]): Promise<string[]> {
    const missing = () => {
      const present = new Set(known!.values());
      return wanted.filter((k) => !present.has(k));
    };
    if (wanted.length === 0) return [];
    if (!known || missing().length > 0) await readCatalog();
    return missing();
  },

  /** Adds the permission and its unique key; `event` is null only for the seed of the built-ins. */
  async create(p: Permission, event: DomainEvent | null): Promise<void> {
    await transact([
      permissionEntity.newItemStep(CATALOG, { ...p, version: 1 }),
      permissionKeyEntity.newItemStep(CATALOG, { key: p.key, permissionId: p.id, usage: 0 }, () =>
        conflict(`A permission with the key ${p.key} already exists`),
      ),
      ...(event ? [outboxStep(event)] : []),
    ]);
    known?.set(p.id, p.key);
  },

  /**
   * Replaces name, description and category (and the built-in mark) if nobody changed the
   * permission since `expectedVersion`; `event` is null only for the seed of the built-ins.
   */
  async update(next: Permission, expectedVersion: number, event: DomainEvent | null): Promise<void> {
    await transact([
      permissionEntity.versionedPutStep(CATALOG, { ...next, version: expectedVersion + 1 }, expectedVersion),
      ...(event ? [outboxStep(event)] : []),
    ]);
  },

  /** Deletes the permission and its key, only while no role or key names it. */
  async remove(p: Permission, expectedVersion: number, event: DomainEvent): Promise<void> {
    await transact([
      permissionEntity.versionedDeleteStep(CATALOG, { ...p, version: expectedVersion }),
      deleteStep(
        permissionKeyEntity.key(p.key),
        {
          expression: 'permissionId = :id AND (attribute_not_exists(#usage) OR #usage = :zero)',
          names: { '#usage': 'usage' },
          values: { ':id': p.id, ':zero': 0 },
        },
        () => conflict(`The permission ${p.key} is in use by roles or API keys; take it out of them first`),
      ),
      outboxStep(event),
    ]);
    known?.delete(p.id);
  },
};
