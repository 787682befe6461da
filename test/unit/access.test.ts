/** The pure rules of access: the catalog and system roles, catalog paging, and who may grant what. */
import { describe, expect, it } from 'vitest';
import {
  PLATFORM_OPERATOR_ROLE,
  builtInPermissions,
  describeBuiltIn,
  isBuiltInPermission,
  platformPermissions,
  readPermissions,
  systemRoles,
  tenantPermissions,
} from '../../shared/auth/catalog';
import type { Principal } from '../../shared/auth/principal';
import type { ApiKeyRecord } from '../../shared/data/apiKeys';
import type { Permission } from '../../shared/data/permissions';
import { assertTierAllowed, assertWithinReach, chosenGrant, locationsGiven } from '../../shared/domain/apiKeys';
import { assertMayGrant, pagePermissions } from '../../shared/domain/permissions';
import { AppError } from '../../shared/errors';
import { routePermissions } from '../../shared/routes';
import { PERMISSION_KEY_PATTERN } from '../../shared/schemas/access';

const principal = (over: Partial<Principal> = {}): Principal => ({
  kind: 'apiKey',
  companyId: 1,
  permissions: ['coursings.read', 'coursings.create'],
  tier: 'premium',
  locationIds: null,
  rateSubject: 'key:abc',
  internalOperator: false,
  ...over,
});

/** The error a call throws, for asserting its code and details. */
function caught(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('built-in catalog and system roles', () => {
  it('holds every permission a route requires (list a new one in shared/auth/catalog.ts)', () => {
    expect(routePermissions().filter((key) => !isBuiltInPermission(key))).toEqual([]);
  });

  it('has keys that match the key pattern', () => {
    for (const key of builtInPermissions) expect(key).toMatch(new RegExp(PERMISSION_KEY_PATTERN));
    expect(isBuiltInPermission('api_keys.manage')).toBe(true);
    expect(isBuiltInPermission('loyalty.read')).toBe(false);
  });

  it('names built-ins for people and files them under their resource', () => {
    expect(describeBuiltIn('api_keys.manage')).toEqual({ name: 'Manage API keys', category: 'api_keys' });
    expect(describeBuiltIn('variant_groups.read')).toEqual({ name: 'Read variant groups', category: 'variant_groups' });
  });

  it("gives admin everything but the platform's, readonly every read, and the platform operator everything", () => {
    expect(systemRoles.admin).toEqual(tenantPermissions);
    expect(systemRoles.readonly).toEqual(readPermissions());
    expect(systemRoles.readonly.every((p) => p.endsWith('.read'))).toBe(true);
    expect(PLATFORM_OPERATOR_ROLE.permissions).toEqual(builtInPermissions);
  });

  it("keeps the platform's onboarding permissions to the platform-operator role", () => {
    expect(platformPermissions).toEqual(['companies.create', 'companies.manage', 'companies.read']);
    expect([...tenantPermissions, ...platformPermissions].sort()).toEqual([...builtInPermissions]);
    for (const [name, grant] of Object.entries(systemRoles))
      for (const p of platformPermissions) expect(grant, name).not.toContain(p);
    expect(readPermissions()).not.toContain('companies.read');
  });

  it('keeps access and integration administration from managers, and back-office reads from staff', () => {
    for (const p of ['roles.create', 'roles.update', 'api_keys.manage', 'webhooks.manage', 'permissions.create'])
      expect(systemRoles.manager).not.toContain(p);
    expect(systemRoles.manager).toEqual(
      expect.arrayContaining(['bookings.manage', 'locations.manage', 'reports.read', 'roles.read']),
    );
    expect(systemRoles.staff).toEqual(
      expect.arrayContaining(['bookings.create', 'tabs.manage', 'orders.manage', 'coursings.read']),
    );
    for (const p of ['api_keys.read', 'roles.read', 'reports.read', 'permissions.read', 'locations.manage'])
      expect(systemRoles.staff).not.toContain(p);
    for (const grant of Object.values(systemRoles))
      expect(builtInPermissions).toEqual(expect.arrayContaining([...grant]));
  });
});

describe('paging the catalog', () => {
  const stamp = '2026-11-20T00:00:00.000Z';
  const p = (
    id: number,
    key: string,
    name: string,
    category: string | null,
    description: string | null = null,
  ): Permission => ({
    id,
    key,
    name,
    description,
    category,
    builtIn: false,
    createdAt: stamp,
    updatedAt: stamp,
  });
  const all = [
    p(3, 'tabs.read', 'Read tabs', 'tabs'),
    p(1, 'loyalty.read', 'Read loyalty points', 'loyalty', 'Points balance of a GUEST'),
    p(2, 'bookings.read', 'Read bookings', 'bookings'),
    p(4, 'loyalty.manage', 'Manage loyalty', 'loyalty'),
  ];

  it('orders by key and pages with totals; the cursor goes on after the last key listed', () => {
    const page = pagePermissions(all, { page: 2, limit: 3 });
    expect(page.items.map((x) => x.key)).toEqual(['tabs.read']);
    expect(page.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2, nextCursor: null });
    expect(pagePermissions(all, { page: 3, limit: 3 }).items).toEqual([]);

    const first = pagePermissions(all, { page: 1, limit: 2 });
    expect(first.items.map((x) => x.key)).toEqual(['bookings.read', 'loyalty.manage']);
    const next = pagePermissions(all, { page: 1, limit: 2, cursor: first.pagination.nextCursor! });
    expect(next.items.map((x) => x.key)).toEqual(['loyalty.read', 'tabs.read']);
    expect(next.pagination).toEqual({ page: 2, limit: 2, total: 4, totalPages: 2, nextCursor: null });
    // A permission added before the cursor's position does not shift the next page (it would with page=2).
    const added = [...all, p(5, 'alerts.read', 'Read alerts', 'alerts')];
    expect(
      pagePermissions(added, { page: 1, limit: 2, cursor: first.pagination.nextCursor! }).items.map((x) => x.key),
    ).toEqual(['loyalty.read', 'tabs.read']);
    expect(() => pagePermissions(all, { page: 1, limit: 2, cursor: 'garbage' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });

  it('filters by exact category', () => {
    expect(pagePermissions(all, { page: 1, limit: 50, category: 'loyalty' }).items.map((x) => x.id)).toEqual([4, 1]);
    expect(pagePermissions(all, { page: 1, limit: 50, category: 'loyal' }).items).toEqual([]);
  });

  it('searches key, name and description, ignoring case', () => {
    const ids = (search: string) => pagePermissions(all, { page: 1, limit: 50, search }).items.map((x) => x.id);
    expect(ids('BOOKINGS.')).toEqual([2]);
    expect(ids('points')).toEqual([1]);
    expect(ids('guest')).toEqual([1]);
    expect(ids('read')).toEqual([2, 1, 3]);
    expect(pagePermissions(all, { page: 1, limit: 50, search: 'read', category: 'tabs' }).pagination.total).toBe(1);
  });
});

describe('granting permissions', () => {
  it('allows what the caller holds and names each other permission with its place in the body', () => {
    expect(() => assertMayGrant(principal(), [{ key: 'coursings.read', path: '/permissions/0' }])).not.toThrow();
    const err = caught(() =>
      assertMayGrant(principal(), [
        { key: 'coursings.read', path: '/permissions/0' },
        { key: 'roles.update', path: '/permissions/1' },
      ]),
    );
    expect(err.code).toBe('FORBIDDEN');
    expect(err.details).toEqual([{ path: '/permissions/1', message: expect.stringContaining('roles.update') }]);
  });

  it('lets internal operators grant any permission', () => {
    expect(() =>
      assertMayGrant(principal({ kind: 'user', internalOperator: true, permissions: [] }), [
        { key: 'loyalty.read', path: '/permissionIds/0' },
      ]),
    ).not.toThrow();
  });
});

describe('API key rules', () => {
  it('wants exactly one of roleId and permissions on creation, at most one on updates', () => {
    expect(chosenGrant({ roleId: 3 }, true)).toBe('role');
    expect(chosenGrant({ permissions: ['coursings.read'] }, true)).toBe('permissions');
    expect(chosenGrant({}, false)).toBeUndefined();
    const cases: [{ roleId?: number; permissions?: string[] }, boolean][] = [
      [{ roleId: 3, permissions: ['coursings.read'] }, false],
      [{}, true],
    ];
    for (const [input, required] of cases) {
      const err = caught(() => chosenGrant(input, required));
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.details.map((d) => d.path)).toEqual(['/roleId', '/permissions']);
    }
  });

  it('keeps a key from giving a higher tier than its own; users are not bounded by their rate tier', () => {
    expect(() => assertTierAllowed(principal({ tier: 'premium' }), 'premium')).not.toThrow();
    expect(() => assertTierAllowed(principal({ tier: 'premium' }), 'standard')).not.toThrow();
    expect(caught(() => assertTierAllowed(principal({ tier: 'premium' }), 'unlimited')).details).toEqual([
      { path: '/tier', message: 'at most premium' },
    ]);
    expect(caught(() => assertTierAllowed(principal({ tier: 'standard' }), 'premium')).code).toBe('FORBIDDEN');
    expect(() => assertTierAllowed(principal({ kind: 'user', tier: 'standard' }), 'unlimited')).not.toThrow();
  });

  it('lets a location-limited caller give only its own locations, all of them by default', () => {
    const limited = principal({ locationIds: [101, 102] });
    expect(locationsGiven(limited, undefined)).toEqual([101, 102]);
    expect(locationsGiven(limited, [102])).toEqual([102]);
    expect(caught(() => locationsGiven(limited, [102, 103])).code).toBe('FORBIDDEN');
    expect(caught(() => locationsGiven(limited, null)).code).toBe('FORBIDDEN');
    expect(locationsGiven(principal(), undefined)).toBeNull();
    expect(locationsGiven(principal(), null)).toBeNull();
    expect(locationsGiven(principal(), [103])).toEqual([103]);
  });

  it('lets a location-limited caller manage only keys within its locations', () => {
    const key = (locationIds: number[] | null) => ({ locationIds }) as ApiKeyRecord;
    const limited = principal({ locationIds: [101, 102] });
    expect(() => assertWithinReach(limited, key([101]))).not.toThrow();
    expect(caught(() => assertWithinReach(limited, key([101, 103]))).code).toBe('FORBIDDEN');
    expect(caught(() => assertWithinReach(limited, key(null))).code).toBe('FORBIDDEN');
    expect(() => assertWithinReach(principal(), key(null))).not.toThrow();
  });
});
