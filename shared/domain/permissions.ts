/**
 * The permission catalog (spec 2.6, §5): readable by any credential holding permissions.read,
 * changed only by internal operators. Also the rules every grant of permissions follows (roles
 * and API keys): the permissions must exist, and a caller may grant only what it holds.
 */
import { builtInPermissions, describeBuiltIn, isBuiltInPermission } from '../auth/catalog';
import type { Principal } from '../auth/principal';
import { nextId } from '../data/ids';
import { permissions, permissionsNotFound, type IsCounted, type Permission } from '../data/permissions';
import { AppError, conflict, forbidden, notFound, type FieldProblem } from '../errors';
import { newEvent } from '../events/catalog';
import { pageInMemory, type Page } from '../page';
import type { CreatePermissionBody, ListPermissionsQuery, UpdatePermissionBody } from '../schemas/access';
import { changedFields } from './changes';

function assertInternalOperator(principal: Principal): void {
  if (principal.kind !== 'user' || !principal.internalOperator) {
    throw forbidden('Only internal operators may change the permission catalog');
  }
}

/**
 * Filters, orders by key and pages the catalog, which is read whole (it is small). Pure. The
 * cursor goes on after the last key listed (the filters come from the query, as on every list).
 */
export function pagePermissions(all: readonly Permission[], query: ListPermissionsQuery): Page<Permission> {
  const needle = query.search?.toLowerCase();
  const matches = all
    .filter((p) => query.category === undefined || p.category === query.category)
    .filter((p) => needle === undefined || [p.key, p.name, p.description ?? ''].some((text) => text.toLowerCase().includes(needle)))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return pageInMemory(matches, query, 'permissions', (p) => p.key);
}

export async function listPermissions(query: ListPermissionsQuery): Promise<Page<Permission>> {
  return pagePermissions(await permissions.list(), query);
}

export async function createPermission(principal: Principal, input: CreatePermissionBody): Promise<Permission> {
  assertInternalOperator(principal);
  const now = new Date().toISOString();
  const permission: Permission = {
    id: await nextId('permission'),
    key: input.key,
    name: input.name,
    description: input.description ?? null,
    category: input.category ?? null,
    builtIn: isBuiltInPermission(input.key),
    createdAt: now,
    updatedAt: now,
  };
  await permissions.create(permission, newEvent(principal.companyId, 'permission.created', String(permission.id), { ...permission }));
  return permission;
}

/** Changes name, description or category (the key never changes); a change of nothing writes nothing. */
export async function updatePermission(principal: Principal, id: number, input: UpdatePermissionBody): Promise<Permission> {
  assertInternalOperator(principal);
  const current = await permissions.get(id);
  if (!current) throw notFound('Permission');
  const next: Permission = { ...current.permission, ...input, updatedAt: new Date().toISOString() };
  const changes = changedFields(current.permission, next, ['name', 'description', 'category']);
  if (Object.keys(changes).length === 0) return current.permission;
  await permissions.update(next, current.version, newEvent(principal.companyId, 'permission.updated', String(id), { ...next }, changes));
  return next;
}

/** Deletes a custom permission that no role or key names (409 otherwise); built-ins stay. */
export async function deletePermission(principal: Principal, id: number): Promise<Permission> {
  assertInternalOperator(principal);
  const current = await permissions.get(id);
  if (!current) throw notFound('Permission');
  const { permission } = current;
  if (permission.builtIn) throw conflict(`The permission ${permission.key} is built in: operations of the API require it`);
  await permissions.remove(permission, current.version, newEvent(principal.companyId, 'permission.deleted', String(id), { ...permission }));
  return permission;
}

/** A permission a request grants, and where in the body it named it. */
export interface Grant {
  key: string;
  path: string;
}

/** The keys of the permission ids a body names at `path`; 404 with one detail per unknown id. */
export async function permissionKeysOf(ids: readonly number[], path: string): Promise<string[]> {
  const found = await permissions.keysOf(ids);
  const missing: FieldProblem[] = ids.flatMap((id, i) => (found.has(id) ? [] : [{ path: `${path}/${i}`, message: `names no permission (${id})` }]));
  if (missing.length) throw permissionsNotFound(missing);
  return ids.map((id) => found.get(id)!);
}

/** Custom permissions are counted in their `usage`; built-ins always exist and are never counted. */
export const isCustomPermission: IsCounted = (key) => !isBuiltInPermission(key);

/** 404 with one detail per permission key of the body that is not in the catalog (built-ins always are). */
export async function assertPermissionsExist(grants: readonly Grant[]): Promise<void> {
  const unknown = new Set(await permissions.unknownKeys(grants.map((g) => g.key).filter(isCustomPermission)));
  const missing = grants.filter((g) => unknown.has(g.key)).map((g) => ({ path: g.path, message: `names no permission (${g.key})` }));
  if (missing.length) throw permissionsNotFound(missing);
}

/**
 * No privilege escalation: a caller may put into a role or key only permissions it holds itself
 * (403, one detail per other permission). Internal operators define the catalog and may grant any.
 */
export function assertMayGrant(principal: Principal, grants: readonly Grant[]): void {
  if (principal.internalOperator) return;
  const held = new Set(principal.permissions);
  const excess = grants.filter((g) => !held.has(g.key)).map((g) => ({ path: g.path, message: `grants ${g.key}, which this credential does not hold` }));
  if (excess.length) throw new AppError('FORBIDDEN', 'A credential may grant only permissions it holds', excess);
}

/** Adds the built-in permissions the catalog lacks, in key order (the local seed; idempotent). */
export async function seedBuiltInPermissions(): Promise<void> {
  const present = new Set((await permissions.list()).map((p) => p.key));
  const now = new Date().toISOString();
  const missing = builtInPermissions.filter((k) => !present.has(k));
  // Ascending ids in key order, however the concurrent allocations interleave.
  const ids = (await Promise.all(missing.map(() => nextId('permission')))).sort((a, b) => a - b);
  await Promise.all(
    missing.map((key, i) => permissions.create({ id: ids[i]!, key, ...describeBuiltIn(key), description: null, builtIn: true, createdAt: now, updatedAt: now }, null)),
  );
}
