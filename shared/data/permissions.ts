/**
 * The permission catalog, platform-wide (not per company), in one partition:
 *
 *   PERMISSIONS / ID#<id:12>   the permission as the API shows it (+ `version`)
 *   PERMISSIONS / KEY#<key>    its key: unique (written with attribute_not_exists), the id it
 *                              belongs to, and `usage`, how many roles and keys name it
 *
 * Roles and API keys name custom permissions inside their own transactions with `usageSteps`,
 * which ADD to `usage` under attribute_exists: that also proves the permission exists. A
 * permission is deleted only while `usage` is 0, a condition of the deleting transaction.
 * Built-in permissions are never counted: they cannot be deleted.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from './paging';
import { isBuiltInPermission } from '../auth/catalog';
import { AppError, conflict, unprocessable, type FieldProblem } from '../errors';
import type { DomainEvent } from '../events/catalog';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { transact, type Step } from './transact';
import { outboxStep } from './outbox';

export interface Permission {
  id: number;
  key: string;
  name: string;
  description: string | null;
  category: string | null;
  builtIn: boolean;
  createdAt: string;
  updatedAt: string;
}

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

const fields = ['id', 'key', 'name', 'description', 'category', 'builtIn', 'createdAt', 'updatedAt'] as const;
const toPermission = (i: Record<string, unknown>) => pick<Permission>(i, fields);

const PARTITION = 'PERMISSIONS';
const ID_PREFIX = 'ID#';
const recordKey = (id: number) => ({ pk: PARTITION, sk: `${ID_PREFIX}${keys.pad(id)}` });
const keyItemKey = (key: string) => ({ pk: PARTITION, sk: `KEY#${key}` });

/** One atomic TransactWriteItems holds at most this many items. */
const MAX_TRANSACTION_ITEMS = 100;

/** 404 for permissions a request named that are not in the catalog, one detail per name. */
export const permissionsNotFound = (problems: FieldProblem[]) =>
  new AppError('NOT_FOUND', problems.length === 1 ? 'A named permission does not exist' : 'Some named permissions do not exist', problems);

/**
 * What this process knows of the catalog: id → key. Ids are never reused and keys never change, so
 * an entry stays true while the permission exists; a deleted one is caught by the conditions of
 * the transaction that names it. A miss reloads the catalog (one Query).
 */
let known: Map<number, string> | undefined;

async function readCatalog(): Promise<Permission[]> {
  const items = await queryAll({ partition: PARTITION, range: { op: 'begins_with', value: ID_PREFIX } });
  const found = items.map(toPermission);
  known = new Map(found.map((p) => [p.id, p.key]));
  return found;
}

function recordItem(p: Permission, version: number) {
  return { ...recordKey(p.id), entity: 'PERMISSION', ...p, version };
}

/** The steps that count one more (or one fewer) role or key naming each custom permission of `refs`. */
export function usageSteps(refs: readonly PermissionRef[], delta: 1 | -1): Step[] {
  return refs
    .filter((r) => !isBuiltInPermission(r.key))
    .map((r) => ({
      item: {
        Update: {
          TableName: tableName(),
          Key: keyItemKey(r.key),
          UpdateExpression: 'ADD #usage :d',
          ConditionExpression: r.id === undefined ? 'attribute_exists(pk)' : 'permissionId = :id',
          ExpressionAttributeNames: { '#usage': 'usage' },
          ExpressionAttributeValues: { ':d': delta, ...(r.id === undefined ? {} : { ':id': r.id }) },
        },
      },
      onConditionFailed: () => {
        if (r.id !== undefined) known?.delete(r.id);
        return permissionsNotFound([{ path: r.path, message: `names no permission of the catalog (${r.key})` }]);
      },
    }));
}

/**
 * Runs a transaction that names permissions, refusing it (422) when it would exceed DynamoDB's 100
 * items: only a change that adds and removes very many custom permissions and locations at once can.
 */
export async function transactNaming(steps: Step[]): Promise<void> {
  if (steps.length > MAX_TRANSACTION_ITEMS) {
    throw unprocessable(`This change names too many custom permissions and locations for one atomic write (${steps.length} items, at most ${MAX_TRANSACTION_ITEMS}); make it in two steps`);
  }
  await transact(steps);
}

export const permissions = {
  /** The whole catalog (it is small: one Query), by id. */
  list: readCatalog,

  async get(id: number): Promise<StoredPermission | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: recordKey(id) }));
      return out.Item ? { permission: toPermission(out.Item), version: Number(out.Item.version) } : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /**
   * The keys of `ids` that are in the catalog; ids missing from the answer are not. From this
   * process's memory when it knows them all, else from one Query of the catalog.
   */
  async keysOf(ids: readonly number[]): Promise<Map<number, string>> {
    if (!known || ids.some((id) => !known!.has(id))) await readCatalog();
    return new Map(ids.filter((id) => known!.has(id)).map((id) => [id, known!.get(id)!]));
  },

  /** The custom keys among `wanted` that are not in the catalog (built-in keys always are). */
  async unknownKeys(wanted: readonly string[]): Promise<string[]> {
    const custom = wanted.filter((k) => !isBuiltInPermission(k));
    const missing = () => {
      const present = new Set(known!.values());
      return custom.filter((k) => !present.has(k));
    };
    if (custom.length === 0) return [];
    if (!known || missing().length > 0) await readCatalog();
    return missing();
  },

  /** Adds the permission and its unique key; `event` is null only for the seed of the built-ins. */
  async create(p: Permission, event: DomainEvent | null): Promise<void> {
    await transact([
      { item: { Put: { TableName: tableName(), Item: recordItem(p, 1), ConditionExpression: 'attribute_not_exists(pk)' } } },
      {
        item: {
          Put: {
            TableName: tableName(),
            Item: { ...keyItemKey(p.key), entity: 'PERMISSION_KEY', permissionId: p.id, usage: 0 },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        onConditionFailed: () => conflict(`A permission with the key ${p.key} already exists`),
      },
      ...(event ? [outboxStep(event)] : []),
    ]);
    known?.set(p.id, p.key);
  },

  /** Replaces name, description and category if nobody changed the permission since `expectedVersion`. */
  async update(next: Permission, expectedVersion: number, event: DomainEvent): Promise<void> {
    await transact([
      {
        item: {
          Put: {
            TableName: tableName(),
            Item: recordItem(next, expectedVersion + 1),
            ConditionExpression: 'attribute_exists(pk) AND version = :v',
            ExpressionAttributeValues: { ':v': expectedVersion },
          },
        },
        onConditionFailed: () => conflict('The permission was changed by another request; read it again and retry'),
      },
      outboxStep(event),
    ]);
  },

  /** Deletes the permission and its key, only while no role or key names it. */
  async remove(p: Permission, expectedVersion: number, event: DomainEvent): Promise<void> {
    await transact([
      {
        item: {
          Delete: {
            TableName: tableName(),
            Key: recordKey(p.id),
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': expectedVersion },
          },
        },
        onConditionFailed: () => conflict('The permission was changed by another request; read it again and retry'),
      },
      {
        item: {
          Delete: {
            TableName: tableName(),
            Key: keyItemKey(p.key),
            ConditionExpression: 'permissionId = :id AND (attribute_not_exists(#usage) OR #usage = :zero)',
            ExpressionAttributeNames: { '#usage': 'usage' },
            ExpressionAttributeValues: { ':id': p.id, ':zero': 0 },
          },
        },
        onConditionFailed: () => conflict(`The permission ${p.key} is in use by roles or API keys; take it out of them first`),
      },
      outboxStep(event),
    ]);
    known?.delete(p.id);
  },
};
