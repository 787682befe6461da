/**
 * The permission catalog (docs/access.md): readable by any credential holding permissions.read,
 * changed only by internal operators. Also the rules every grant of permissions follows (roles
 * and API keys): the permissions must exist, and a caller may grant only what it holds.
 */
import { builtInPermissions, describeBuiltIn, isBuiltInPermission, isPlatformOnly } from '../auth/catalog';
import { holds, type Principal } from '../auth/principal';
import { nextId } from '../data/ids';
import { permissions, permissionsNotFound, type IsCounted, type Permission } from '../data/permissions';
import { AppError, conflict, notFound, type FieldProblem } from '../errors';
import { newEvent } from '../events/catalog';
import { pageInMemory, type Page } from '../page';
import type { CreatePermissionBody, ListPermissionsQuery, UpdatePermissionBody } from '../schemas/access';
import { assertInternalOperator } from './access';
import { changedFields } from './changes';

const assertOperator = (principal: Principal) => assertInternalOperator(principal, 'change the permission catalog');

/**
 * Filters, orders by key and pages the catalog, which is read whole (it is small). Pure. The
 * cursor goes on after the last key listed (the filters come from the query, as on every list).
 */
export function pagePermissions(all: readonly Permission[], query: ListPermissionsQuery): Page<Permission> {
  const needle = query.search?.toLowerCase();
  const matches = all
    .filter((p) => query.category === undefined || p.category === query.category)
    .filter(
      (p) =>
        needle === undefined ||
        [p.key, p.name, p.description ?? ''].some((text) => text.toLowerCase().includes(needle)),
    )
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return pageInMemory(matches, query, 'permissions', (p) => p.key);
}

export async function listPermissions(query: ListPermissionsQuery): Promise<Page<Permission>> {
  return pagePermissions(await permissions.list(), query);
}

export async function createPermission(principal: Principal, input: CreatePermissionBody): Promise<Permission> {
  assertOperator(principal);
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
  await permissions.create(
    permission,
    newEvent(principal.companyId, 'permission.created', String(permission.id), { ...permission }),
  );
  return permission;
}

/** Changes name, description or category (the key never changes); a change of nothing writes nothing. */
export async function updatePermission(
  principal: Principal,
  id: number,
  input: UpdatePermissionBody,
): Promise<Permission> {
  assertOperator(principal);
  const current = await permissions.get(id);
  if (!current) throw notFound('Permission');
  const next: Permission = { ...current.permission, ...input, updatedAt: new Date().toISOString() };
  const changes = changedFields(current.permission, next, ['name', 'description', 'category']);
  if (Object.keys(changes).length === 0) return current.permission;
  await permissions.update(
    next,
    current.version,
    newEvent(principal.companyId, 'permission.updated', String(id), { ...next }, changes),
  );
  return next;
}

/** Deletes a custom permission that no role or key names (409 otherwise); built-ins stay. */
export async function deletePermission(principal: Principal, id: number): Promise<Permission> {
  assertOperator(principal);
  const current = await permissions.get(id);
  if (!current) throw notFound('Permission');
  const { permission } = current;
  if (permission.builtIn)
    throw conflict(`The permission ${permission.key} is built in: operations of the API require it`);
  await permissions.remove(
    permission,
    current.version,
    newEvent(principal.companyId, 'permission.deleted', String(id), { ...permission }),
  );
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
  const missing: FieldProblem[] = ids.flatMap((id, i) =>
    found.has(id) ? [] : [{ path: `${path}/${i}`, message: `names no permission (${id})` }],
  );
  if (missing.length) throw permissionsNotFound(missing);
  return ids.map((id) => found.get(id)!);
}

/** Custom permissions are counted in their `usage`; built-ins always exist and are never counted. */
export const isCustomPermission: IsCounted = (key) => !isBuiltInPermission(key);

/** 404 with one detail per permission key of the body that is not in the catalog (built-ins always are). */
export async function assertPermissionsExist(grants: readonly Grant[]): Promise<void> {
  const unknown = new Set(await permissions.unknownKeys(grants.map((g) => g.key).filter(isCustomPermission)));
  const missing = grants
    .filter((g) => unknown.has(g.key))
    .map((g) => ({ path: g.path, message: `names no permission (${g.key})` }));
  if (missing.length) throw permissionsNotFound(missing);
}

/**
 * No privilege escalation: a caller may put into a role or key only permissions it holds itself
 * (403, one detail per other permission). Internal operators define the catalog and may grant any.
 */
/**
 * 403 naming each permission only the platform grants (`companies.*`, `permissions.create/update/delete`)
 * that a company's caller puts into a role or a key; internal operators may. Checked before anything is written.
 */
export function assertNoPlatformGrant(principal: Principal, grants: readonly Grant[]): void {
  if (principal.internalOperator) return;
  const refused = grants.filter((g) => isPlatformOnly(g.key));
  if (refused.length === 0) return;
  const keys = [...new Set(refused.map((g) => g.key))];
  throw new AppError(
    'FORBIDDEN',
    `Only the platform grants ${listed(keys)}: a company's roles and API keys cannot hold ${keys.length > 1 ? 'them' : 'it'}`,
    refused.map((g) => ({ path: g.path, message: `${g.key} is granted only by the platform` })),
  );
}

export function assertMayGrant(principal: Principal, grants: readonly Grant[]): void {
  const excess = grants
    .filter((g) => !mayWield(principal, g.key))
    .map((g) => ({ path: g.path, message: `grants ${g.key}, which this credential does not hold` }));
  if (excess.length) throw new AppError('FORBIDDEN', 'A credential may grant only permissions it holds', excess);
}

/** Whether the caller may grant, or act on something that holds, the permission: internal operators may any. */
const mayWield = (principal: Principal, key: string) => principal.internalOperator || holds(principal, key);

/** What a role or key grants, as stored: its permission keys, or every permission (the admin role). */
export interface HeldGrant {
  permissionKeys: readonly string[];
  allPermissions?: boolean | undefined;
}

/** The keys a grant holds now: for the admin role, every permission of the catalog (read now, so one made a moment ago counts). */
export async function keysHeld(grant: HeldGrant): Promise<string[]> {
  return grant.allPermissions ? (await permissions.list()).map((p) => p.key) : [...grant.permissionKeys];
}

/** The permissions of `keys` the caller does not hold (none for internal operators). Pure. */
const lackedBy = (principal: Principal, keys: readonly string[]): string[] =>
  keys.filter((key) => !mayWield(principal, key));

/** "a, b and c", at most `shown` of them and how many more. Pure. */
function listed(keys: readonly string[], shown = 10): string {
  const head = keys.slice(0, shown);
  const more = keys.length - head.length;
  if (more > 0) return `${head.join(', ')} and ${more} more`;
  return head.length > 1 ? `${head.slice(0, -1).join(', ')} and ${head.at(-1)}` : (head[0] ?? '');
}

/** Something a caller lacks of a role or key it would change (a permission, a tier), as the 403 names it. */
export interface Shortfall {
  lacking: string;
  problem: FieldProblem;
}

/** The permissions a role or key holds as it is that the caller does not (docs/access.md, threat model, item 6). */
export async function permissionShortfalls(
  principal: Principal,
  target: HeldGrant,
  path: string,
): Promise<Shortfall[]> {
  return lackedBy(principal, await keysHeld(target)).map((key) => ({
    lacking: key,
    problem: { path, message: `holds ${key}, which this credential does not hold` },
  }));
}

/**
 * A caller may change, revoke or delete a role or key only if it holds everything the role or key
 * holds as it is: otherwise a weaker credential could strip or repurpose a stronger one (403
 * naming what it lacks). Pure.
 */
export function assertNoShortfall(what: string, shortfalls: readonly Shortfall[]): void {
  if (shortfalls.length === 0) return;
  throw new AppError(
    'FORBIDDEN',
    `This credential may not change ${what}, which holds what this credential does not: ${listed(shortfalls.map((s) => s.lacking))}`,
    shortfalls.map((s) => s.problem),
  );
}

/** What a run of `syncBuiltInPermissions` changed, by key. */
export interface CatalogSync {
  added: string[];
  updated: string[];
}

/** The catalog entry of a built-in as the code describes it: its name, its category, the built-in mark. */
const asBuiltIn = (p: Permission): Permission => ({ ...p, ...describeBuiltIn(p.key), builtIn: true });
const differs = (a: Permission, b: Permission) =>
  a.name !== b.name || a.category !== b.category || a.builtIn !== b.builtIn;

/**
 * Brings the catalog's built-ins in line with the code (shared/auth/catalog.ts): adds those it
 * lacks (ascending ids in key order) and gives those whose name, category or built-in mark differ
 * the code's (a permission an operator made that the code now builds in becomes built in).
 * Descriptions and every other permission stay as they are. Idempotent: a second run reads the
 * catalog and writes nothing. Another run adding or changing the same permission meanwhile (409)
 * did what this one would. The local seed runs it; deployed stages run it at every deploy that
 * changes it (functions/catalog/seed.ts, docs/onboarding.md). No event: the catalog's seeding
 * belongs to no company.
 */
export async function syncBuiltInPermissions(): Promise<CatalogSync> {
  const present = new Map((await permissions.list()).map((p) => [p.key, p]));
  const now = new Date().toISOString();
  const missing = builtInPermissions.filter((k) => !present.has(k));
  const changed = builtInPermissions.flatMap((k) => {
    const current = present.get(k);
    return current && differs(current, asBuiltIn(current)) ? [current] : [];
  });
  // Ascending ids in key order, however the concurrent allocations interleave.
  const ids = (await Promise.all(missing.map(() => nextId('permission')))).sort((a, b) => a - b);
  const doneElsewhere = (err: unknown) => {
    if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
  };
  await Promise.all([
    ...missing.map((key, i) =>
      permissions
        .create(
          {
            id: ids[i]!,
            key,
            ...describeBuiltIn(key),
            description: null,
            builtIn: true,
            createdAt: now,
            updatedAt: now,
          },
          null,
        )
        .catch(doneElsewhere),
    ),
    ...changed.map(async (p) => {
      const current = await permissions.get(p.id);
      if (current)
        await permissions
          .update({ ...asBuiltIn(current.permission), updatedAt: now }, current.version, null)
          .catch(doneElsewhere);
    }),
  ]);
  return { added: missing, updated: changed.map((p) => p.key) };
}
