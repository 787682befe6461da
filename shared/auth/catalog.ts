/**
 * The built-in permission catalog: every `resource.action` key an operation of the API requires
 * (docs/conventions.md, “Permissions”), and the grants of the system roles every company is seeded with. The
 * permissions API (docs/access.md) adds custom permissions beside these. Plain data: it does not read the
 * route table (which would load every route and schema wherever the catalog is used); a unit test
 * checks that every permission a route requires is listed here.
 */

const grouped: Record<string, string[]> = {
  alerts: ['read', 'manage'],
  api_keys: ['read', 'manage'],
  booking_groups: ['read', 'manage'],
  bookings: ['read', 'create', 'update', 'manage'],
  capacity_settings: ['read', 'manage'],
  companies: ['read', 'create', 'manage'],
  coursings: ['read', 'create', 'update'],
  custom_tags: ['read', 'create', 'update'],
  events: ['read'],
  items: ['read', 'manage'],
  locations: ['read', 'manage'],
  online_booking: ['read', 'create'],
  orders: ['read', 'manage'],
  permissions: ['read', 'create', 'update', 'delete'],
  print_jobs: ['read', 'create'],
  printer_groups: ['read', 'manage'],
  purchases: ['read', 'update', 'manage'],
  reports: ['read', 'manage'],
  reviews: ['read', 'create'],
  roles: ['read', 'create', 'update'],
  schedules: ['read', 'create', 'update', 'delete'],
  tables: ['read', 'manage'],
  tabs: ['read', 'update', 'manage'],
  terminals: ['read', 'update', 'delete'],
  variant_groups: ['read', 'create', 'update', 'delete'],
  webhooks: ['read', 'manage'],
};

export const builtInPermissions: readonly string[] = Object.entries(grouped)
  .flatMap(([resource, actions]) => actions.map((a) => `${resource}.${a}`))
  .sort();

const builtIn = new Set(builtInPermissions);

/**
 * Built-in permissions gate the API's own operations: they always exist, cannot be deleted, and
 * are not reference-counted (data-model notes in docs/access.md).
 */
export const isBuiltInPermission = (key: string): boolean => builtIn.has(key);

/**
 * What a publishable key holds, and all it may ever hold (docs/online-booking.md): the guest-facing
 * operations, a location's public profile and times (`read`) and a guest's booking or waitlist
 * entry (`create`). Nothing else: such a key sits in a web page for anyone to copy.
 */
export const publishablePermissions: readonly string[] = ['online_booking.create', 'online_booking.read'];

/**
 * Onboarding tenants (docs/onboarding.md): the platform's own operations, which only internal
 * operators may call. Only the platform-operator role holds them; no system role of a company does.
 */
export const platformPermissions: readonly string[] = builtInPermissions.filter((p) => p.startsWith('companies.'));
const platformOnly = new Set(platformPermissions);

/**
 * What only the platform grants: its own `companies.*`, and changing the permission catalog
 * (`permissions.create/update/delete`, internal operators only). A company's roles and keys are
 * never given them (403 naming them, docs/access.md): the operations refuse a company's caller
 * anyway, and a credential that lists them would look like one of the platform's.
 */
const platformGrants = new Set([
  ...platformPermissions,
  'permissions.create',
  'permissions.update',
  'permissions.delete',
]);
export const isPlatformOnly = (key: string): boolean => platformGrants.has(key);

/** The built-ins a company's own roles and keys are seeded with: every one but the platform's. */
export const tenantPermissions: readonly string[] = builtInPermissions.filter((p) => !platformOnly.has(p));

/** Every `*.read` a company's credentials may hold (not the platform's `companies.read`). */
export const readPermissions = () => tenantPermissions.filter((p) => p.endsWith('.read'));

const verbs: Record<string, string> = {
  read: 'Read',
  create: 'Create',
  update: 'Update',
  manage: 'Manage',
  delete: 'Delete',
};

/** The catalog entry the seed writes for a built-in key: `api_keys.manage` → "Manage API keys", category `api_keys`. */
export function describeBuiltIn(key: string): { name: string; category: string } {
  const [resource, action] = key.split('.') as [string, string];
  const noun = resource
    .split('_')
    .map((w) => (w === 'api' ? 'API' : w))
    .join(' ');
  return { name: `${verbs[action] ?? action} ${noun}`, category: resource };
}

/** Administering access and integrations: admins only. */
const administration = new Set([
  'permissions.create',
  'permissions.update',
  'permissions.delete',
  'roles.create',
  'roles.update',
  'api_keys.manage',
  'webhooks.manage',
]);
/** Reads of access, integration and financial data that floor staff do not need. */
const backOfficeReads = new Set(['permissions.read', 'roles.read', 'api_keys.read', 'webhooks.read', 'reports.read']);
/** What floor staff do during service: take and change bookings, run tabs and orders, print, take payment. */
const serviceActions = new Set([
  'bookings.create',
  'bookings.update',
  'bookings.manage',
  'tabs.update',
  'tabs.manage',
  'orders.manage',
  'print_jobs.create',
  'purchases.update',
  'reviews.create',
]);

export type SystemRoleName = 'admin' | 'manager' | 'staff' | 'readonly';

/**
 * The system role that holds every permission of the catalog, including those the platform adds
 * later (docs/access.md): it is stored with the built-ins and marked, and authentication, the
 * role list and every grant check read the mark, not the stored list.
 */
export const ADMIN_ROLE: SystemRoleName = 'admin';

/**
 * The system roles every company gets (isSystem, not updatable):
 * - admin: every permission (the built-ins when seeded; custom ones too, see ADMIN_ROLE);
 * - manager: runs the restaurants — everything but administering access and integrations;
 * - staff: floor service — the service actions, and reads other than access, integrations and reports;
 * - readonly: every read.
 * None of them lists the platform's permissions (`platformPermissions`); the admin role's
 * `allPermissions` still makes its keys hold them, so the operations that need them also check that
 * the caller is an internal operator (403 for everyone else).
 */
export const systemRoles: Record<SystemRoleName, readonly string[]> = {
  admin: tenantPermissions,
  manager: tenantPermissions.filter((p) => !administration.has(p)),
  staff: tenantPermissions.filter((p) => serviceActions.has(p) || (p.endsWith('.read') && !backOfficeReads.has(p))),
  readonly: readPermissions(),
};

/** The hidden role of the platform's own operators in each company: every built-in permission, the platform's included. */
export const PLATFORM_OPERATOR_ROLE = { name: 'platform-operator', permissions: builtInPermissions } as const;
