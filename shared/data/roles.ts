/**
 * Roles of a company: `C#<cid>` / `ROLE#<id:12>`, listed through gsi1 `C#<cid>#ROLES` by id. The
 * platform-operator role has no gsi1 keys and is not counted, so no list ever shows it. Each role
 * stores the keys of its permissions beside their ids (keys never change), so authenticating a key
 * that has a role reads only the role.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { AppError, conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { counterStep, listPage, type PageRequest } from './paging';
import { transactNaming, usageSteps, type PermissionRef } from './permissions';
import { type Step } from './transact';
import { outboxStep } from './outbox';

export interface Role {
  id: number;
  name: string;
  description: string | null;
  permissionIds: number[];
  isSystem: boolean;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** A role with what the API does not show: its permissions' keys (same order as the ids) and whether it is the hidden one. */
export interface StoredRole {
  role: Role;
  permissionKeys: string[];
  platformOperator: boolean;
}

const fields = ['id', 'name', 'description', 'permissionIds', 'isSystem', 'createdAt', 'updatedAt', 'version'] as const;
const toStored = (i: Record<string, unknown>): StoredRole => ({
  role: pick<Role>(i, fields),
  permissionKeys: i.permissionKeys as string[],
  platformOperator: i.platformOperator === true,
});

const key = (companyId: number, id: number) => ({ pk: keys.company(companyId), sk: `ROLE#${keys.pad(id)}` });
const listPartition = (companyId: number) => `${keys.company(companyId)}#ROLES`;
const counter = (companyId: number) => ({ pk: keys.company(companyId), sk: 'COUNT#ROLE' });

function item(companyId: number, s: StoredRole) {
  const listed = s.platformOperator ? {} : { gsi1pk: listPartition(companyId), gsi1sk: keys.pad(s.role.id) };
  return { ...key(companyId, s.role.id), ...listed, entity: 'ROLE', companyId, ...s.role, permissionKeys: s.permissionKeys, platformOperator: s.platformOperator };
}

const refsOf = (s: StoredRole, only?: ReadonlySet<number>): PermissionRef[] =>
  s.role.permissionIds
    .map((id, i) => ({ id, key: s.permissionKeys[i]!, path: `/permissionIds/${i}` }))
    .filter((r) => !only || only.has(r.id));

export const roles = {
  async get(companyId: number, id: number): Promise<StoredRole | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId, id) }));
      return out.Item ? toStored(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** The permission keys a role grants (authentication of a key with a role), or undefined. */
  async grantOf(companyId: number, id: number): Promise<string[] | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId, id), ProjectionExpression: 'permissionKeys' }));
      return out.Item ? (out.Item.permissionKeys as string[]) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** The company's roles by id, without the platform-operator role. */
  list(companyId: number, page: PageRequest): Promise<Page<Role>> {
    return listPage({ index: 'gsi1', partition: listPartition(companyId), counter: counter(companyId) }, page, (i) => toStored(i).role);
  },

  /**
   * Adds the role, counts it in each custom permission it names (which must exist) and records the
   * event; only the hidden platform-operator role is seeded without one (no tenant may learn of it).
   */
  async create(companyId: number, s: StoredRole, event: DomainEvent | null): Promise<void> {
    await transactNaming([
      { item: { Put: { TableName: tableName(), Item: item(companyId, s), ConditionExpression: 'attribute_not_exists(pk)' } } },
      ...(s.platformOperator ? [] : [counterStep(counter(companyId), 1)]),
      ...usageSteps(refsOf(s), 1),
      ...(event ? [outboxStep(event)] : []),
    ]);
  },

  /** Replaces the role if nobody changed it since it was read as `prev`; moves the usage counts of the permissions it gains and loses. */
  async update(companyId: number, next: StoredRole, prev: StoredRole, event: DomainEvent): Promise<void> {
    const before = new Set(prev.role.permissionIds);
    const after = new Set(next.role.permissionIds);
    await transactNaming([
      {
        item: {
          Put: {
            TableName: tableName(),
            Item: item(companyId, next),
            ConditionExpression: 'attribute_exists(pk) AND version = :v',
            ExpressionAttributeValues: { ':v': prev.role.version },
          },
        },
        onConditionFailed: () => conflict('The role was changed by another request; read it again and retry'),
      },
      ...usageSteps(refsOf(next, new Set([...after].filter((id) => !before.has(id)))), 1),
      ...usageSteps(refsOf(prev, new Set([...before].filter((id) => !after.has(id)))), -1),
      outboxStep(event),
    ]);
  },
};

/** A transaction step that holds only if the role exists in the company and may be given to a key. */
export function assignableRoleStep(companyId: number, roleId: number): Step {
  return {
    item: {
      ConditionCheck: {
        TableName: tableName(),
        Key: key(companyId, roleId),
        ConditionExpression: 'attribute_exists(pk) AND platformOperator <> :yes',
        ExpressionAttributeValues: { ':yes': true },
      },
    },
    onConditionFailed: () => new AppError('NOT_FOUND', `Role ${roleId} not found`, [{ path: '/roleId', message: 'names no role of this company' }]),
  };
}
