/**
 * Roles (docs/access.md): named sets of permissions a company gives its API keys. The system roles and
 * the hidden platform-operator role are seeded and cannot be changed (403). The admin system role
 * holds every permission of the catalog, including those added after it was seeded. To a company's
 * callers the platform-operator role does not exist: its id answers as an unknown one does (404).
 */
import { ADMIN_ROLE, PLATFORM_OPERATOR_ROLE, systemRoles } from '../auth/catalog';
import type { Principal } from '../auth/principal';
import { nextId } from '../data/ids';
import { permissions } from '../data/permissions';
import { roles, type Role, type StoredRole } from '../data/roles';
import { AppError, forbidden, notFound, unavailable } from '../errors';
import { newEvent, type DomainEvent } from '../events/catalog';
import { Page } from '../page';
import type { CreateRoleBody, ListRolesQuery, UpdateRoleBody } from '../schemas/access';
import { changedFields } from './changes';
import {
  assertMayGrant,
  assertNoPlatformGrant,
  assertNoShortfall,
  isCustomPermission,
  permissionKeysOf,
  permissionShortfalls,
} from './permissions';

/** A page of roles as the API shows them; the admin role lists every permission of the catalog as it is now. */
export async function listRoles(principal: Principal, query: ListRolesQuery): Promise<Page<Role>> {
  const page = await roles.list(principal.companyId, query);
  const everything = page.items.some((r) => r.allPermissions)
    ? (await permissions.list()).map((p) => p.id).sort((a, b) => a - b)
    : [];
  return new Page(
    page.items.map((r) => (r.allPermissions ? { ...r.role, permissionIds: everything } : r.role)),
    page.pagination,
  );
}

/**
 * The role `id` of the caller's company, as a role route may see it: the platform-operator role is
 * there only for internal operators; to anyone else its id is unknown (404, word for word).
 */
export async function visibleRole(
  principal: Principal,
  id: number,
  unknown: () => AppError = () => notFound('Role'),
): Promise<StoredRole> {
  const found = await roles.get(principal.companyId, id);
  if (!found || (found.platformOperator && !principal.internalOperator)) throw unknown();
  return found;
}

/** The keys of the ids, which must exist (404), be none of the platform's and be held by the caller (403). */
async function grantedKeys(principal: Principal, ids: readonly number[]): Promise<string[]> {
  const keys = await permissionKeysOf(ids, '/permissionIds');
  const grants = keys.map((key, i) => ({ key, path: `/permissionIds/${i}` }));
  assertNoPlatformGrant(principal, grants);
  assertMayGrant(principal, grants);
  return keys;
}

export async function createRole(principal: Principal, input: CreateRoleBody): Promise<Role> {
  const permissionKeys = await grantedKeys(principal, input.permissionIds);
  const now = new Date().toISOString();
  const role: Role = {
    id: await nextId('role'),
    name: input.name,
    description: input.description ?? null,
    permissionIds: input.permissionIds,
    isSystem: false,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await roles.create(
    principal.companyId,
    { role, permissionKeys, platformOperator: false },
    isCustomPermission,
    newEvent(principal.companyId, 'role.created', String(role.id), { ...role }),
  );
  return role;
}

/** Changes name, description or permissions of a role the company made; a change of nothing writes nothing. */
export async function updateRole(principal: Principal, id: number, input: UpdateRoleBody): Promise<Role> {
  const current = await visibleRole(principal, id);
  if (current.platformOperator) throw forbidden('The platform-operator role cannot be updated');
  if (current.role.isSystem) throw forbidden(`${current.role.name} is a system role and cannot be updated`);
  assertNoShortfall('this role', await permissionShortfalls(principal, current, '/permissionIds'));
  const permissionKeys = input.permissionIds
    ? await grantedKeys(principal, input.permissionIds)
    : current.permissionKeys;
  const role: Role = {
    ...current.role,
    ...input,
    version: current.role.version + 1,
    updatedAt: new Date().toISOString(),
  };
  const changes = changedFields(current.role, role, ['name', 'description', 'permissionIds']);
  if (Object.keys(changes).length === 0) return current.role;
  await roles.update(
    principal.companyId,
    { ...current, role, permissionKeys },
    current,
    isCustomPermission,
    newEvent(principal.companyId, 'role.updated', String(id), { ...role }, changes),
  );
  return role;
}

/** A new company's system roles, made but not yet written: each role and its event (none for the hidden one). */
export interface SystemRoles {
  made: { stored: StoredRole; event: DomainEvent | null }[];
  /** Their ids by name. */
  ids: Record<string, number>;
}

/**
 * A new company's system roles (admin, manager, staff, readonly) and the hidden platform-operator
 * role, with ids in that order, for the transaction that writes the company (companies.ts). Made
 * at `at`; their events are stamped a millisecond apart after it, so the company's event log, which
 * orders by time, lists them in this order (and after the company's own event, stamped `at`).
 */
export async function systemRolesOf(companyId: number, at = new Date()): Promise<SystemRoles> {
  const ids = await permissions.idsOf(PLATFORM_OPERATOR_ROLE.permissions);
  const seeded: [string, readonly string[], boolean][] = [
    ...Object.entries(systemRoles).map(([name, keys]): [string, readonly string[], boolean] => [name, keys, false]),
    [PLATFORM_OPERATOR_ROLE.name, PLATFORM_OPERATOR_ROLE.permissions, true],
  ];
  const unseeded = PLATFORM_OPERATOR_ROLE.permissions.filter((k) => !ids.has(k));
  if (unseeded.length)
    throw unavailable(
      `The permission catalog lacks built-in permissions (${unseeded.join(', ')}): it is seeded at deploy (docs/onboarding.md)`,
    );
  const now = at.toISOString();
  const out: SystemRoles = { made: [], ids: {} };
  for (const [i, [name, keys, platformOperator]] of seeded.entries()) {
    const role: Role = {
      id: await nextId('role'),
      name,
      description: null,
      permissionIds: keys.map((k) => ids.get(k)!),
      isSystem: true,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const stored: StoredRole = {
      role,
      permissionKeys: [...keys],
      platformOperator,
      ...(name === ADMIN_ROLE ? { allPermissions: true as const } : {}),
    };
    out.made.push({
      stored,
      event: platformOperator
        ? null
        : newEvent(companyId, 'role.created', String(role.id), { ...role }, null, new Date(at.getTime() + 1 + i)),
    });
    out.ids[name] = role.id;
  }
  return out;
}

/** Writes the system roles of a company (one transaction) and answers their ids by name. */
export async function seedSystemRoles(companyId: number): Promise<Record<string, number>> {
  const { made, ids } = await systemRolesOf(companyId);
  await roles.createAll(companyId, made, isCustomPermission);
  return ids;
}
