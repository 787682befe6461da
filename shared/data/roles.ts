/**
 * Roles of a company: `C#<cid>` / `ROLE#<id:12>`, listed through gsi1 `C#<cid>#ROLES` by id. The
 * platform-operator role has no gsi1 keys and is not counted, so no list ever shows it. Each role
 * stores the keys of its permissions beside their ids (keys never change), so authenticating a key
 * that has a role reads only the role.
 */
import { Type, type Static } from '../schemas/typebox';
import { AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { RoleView } from '../schemas/access';
import { companyKey, defineEntity, extendView } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { counterStep, listPage, type PageRequest } from './paging';
import { transactNaming, usageSteps, type IsCounted, type PermissionRef } from './permissions';
import { checkStep, type Step } from './transact';

/** A role as the API shows it: declared by RoleView. */
export type Role = Static<typeof RoleView>;

/** A role with what the API does not show: its permissions' keys (same order as the ids) and whether it is the hidden one. */
export interface StoredRole {
  role: Role;
  permissionKeys: string[];
  platformOperator: boolean;
  /** The admin system role: it holds every permission of the catalog, whatever `permissionIds` stored. */
  allPermissions?: true;
}

/** What authenticating a key with this role needs. */
export interface RoleGrant {
  permissionKeys: string[];
  allPermissions: boolean;
}

/** A role as stored: as shown, and the bookkeeping of StoredRole beside it. */
const RoleItem = extendView(RoleView, {
  permissionKeys: Type.Array(Type.String()),
  platformOperator: Type.Boolean(),
  allPermissions: Type.Optional(Type.Literal(true)),
});
type RoleItem = Static<typeof RoleItem>;

const listPartition = (companyId: number) => `${keys.company(companyId)}#ROLES`;
const counter = (companyId: number) => companyKey(companyId, 'COUNT#ROLE');

/** A role: in its company's partition; listed (gsi1) by id, except the platform-operator role. */
const roleEntity = defineEntity({
  name: 'ROLE',
  label: 'role',
  key: (companyId: number, id: number) => companyKey(companyId, `ROLE#${keys.pad(id)}`),
  schema: RoleItem,
  keyOf: (companyId, r) => [companyId, r.id] as const,
  indexes: (companyId, r) => (r.platformOperator ? {} : { gsi1pk: listPartition(companyId), gsi1sk: keys.pad(r.id) }),
});

const stored = ({ permissionKeys, platformOperator, allPermissions, ...role }: RoleItem): StoredRole => ({
  role,
  permissionKeys,
  platformOperator: platformOperator === true,
  ...(allPermissions === true ? { allPermissions } : {}),
});
const itemOf = (s: StoredRole): RoleItem => ({
  ...s.role,
  permissionKeys: s.permissionKeys,
  platformOperator: s.platformOperator,
  ...(s.allPermissions ? { allPermissions: true as const } : {}),
});

const refsOf = (s: StoredRole, only?: ReadonlySet<number>): PermissionRef[] =>
  s.role.permissionIds
    .map((id, i) => ({ id, key: s.permissionKeys[i]!, path: `/permissionIds/${i}` }))
    .filter((r) => !only || only.has(r.id));

export const roles = {
  async get(companyId: number, id: number): Promise<StoredRole | undefined> {
    const found = await roleEntity.get(companyId, id);
    return found && stored(found);
  },

  /**
   * What a role grants, for authenticating a key that has it, or undefined: a strongly consistent
   * read, so a change of the role is seen by the next verification.
   */
  async grantOf(companyId: number, id: number): Promise<RoleGrant | undefined> {
    const found = await roleEntity.getWith({ consistent: true }, companyId, id);
    return found && { permissionKeys: found.permissionKeys, allPermissions: found.allPermissions === true };
  },

  /** The company's roles by id, without the platform-operator role, each with its bookkeeping. */
  list(companyId: number, page: PageRequest): Promise<Page<StoredRole>> {
    return listPage({ index: 'gsi1', partition: listPartition(companyId), counter: counter(companyId) }, page, (i) =>
      stored(roleEntity.from(i)),
    );
  },

  /**
   * Adds the role, counts it in each counted permission it names (which must exist) and records
   * the event; only the hidden platform-operator role is seeded without one (no tenant may learn of it).
   */
  async create(companyId: number, s: StoredRole, counted: IsCounted, event: DomainEvent | null): Promise<void> {
    await roles.createAll(companyId, [{ stored: s, event }], counted);
  },

  /** Adds several roles in one transaction (`createSteps`). */
  async createAll(
    companyId: number,
    made: readonly { stored: StoredRole; event: DomainEvent | null }[],
    counted: IsCounted,
  ): Promise<void> {
    await transactNaming(roles.createSteps(companyId, made, counted));
  },

  /**
   * The steps that add several roles in one transaction (a new company's system roles, written
   * with the company): each role, one count of the listed ones, the usage of the counted
   * permissions they name and their events. Roles naming the same counted permission cannot share
   * a transaction (one item, two steps); the system roles name built-ins only.
   */
  createSteps(
    companyId: number,
    made: readonly { stored: StoredRole; event: DomainEvent | null }[],
    counted: IsCounted,
  ): Step[] {
    const listed = made.filter((m) => !m.stored.platformOperator).length;
    return [
      ...made.map((m) => roleEntity.newItemStep(companyId, itemOf(m.stored))),
      ...(listed ? [counterStep(counter(companyId), listed)] : []),
      ...made.flatMap((m) => usageSteps(refsOf(m.stored), 1, counted)),
      ...made.flatMap((m) => (m.event ? [outboxStep(m.event)] : [])),
    ];
  },

  /** Replaces the role if nobody changed it since it was read as `prev`; moves the usage counts of the permissions it gains and loses. */
  async update(
    companyId: number,
    next: StoredRole,
    prev: StoredRole,
    counted: IsCounted,
    event: DomainEvent,
  ): Promise<void> {
    const before = new Set(prev.role.permissionIds);
    const after = new Set(next.role.permissionIds);
    await transactNaming([
      roleEntity.versionedPutStep(companyId, itemOf(next), prev.role.version),
      ...usageSteps(refsOf(next, new Set([...after].filter((id) => !before.has(id)))), 1, counted),
      ...usageSteps(refsOf(prev, new Set([...before].filter((id) => !after.has(id)))), -1, counted),
      outboxStep(event),
    ]);
  },
};

/** 404 for a `roleId` that names no role a key of the company may be given (the platform-operator role answers so too). */
export const unassignableRole = (roleId: number) =>
  new AppError('NOT_FOUND', `Role ${roleId} not found`, [
    { path: '/roleId', message: 'names no role of this company' },
  ]);

/** A transaction step that holds only if the role exists in the company and may be given to a key. */
export const assignableRoleStep = (companyId: number, roleId: number): Step =>
  checkStep(
    roleEntity.key(companyId, roleId),
    { expression: 'attribute_exists(pk) AND platformOperator <> :yes', values: { ':yes': true } },
    () => unassignableRole(roleId),
  );
