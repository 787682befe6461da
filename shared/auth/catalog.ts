/**
 * The built-in permission catalog: every `resource.action` key an operation of the API requires
 * (decisions.md §4 and §7), plus those of the route table. The seed grants from it; the
 * permissions API (spec 2.6) manages additions to it.
 */
import { routePermissions } from '../routes';

const grouped: Record<string, string[]> = {
  alerts: ['read', 'manage'],
  api_keys: ['read', 'manage'],
  booking_groups: ['read', 'manage'],
  bookings: ['read', 'create', 'update', 'manage'],
  capacity_settings: ['manage'],
  coursings: ['read', 'create', 'update'],
  custom_tags: ['read', 'create', 'update'],
  items: ['read', 'manage'],
  locations: ['read', 'manage'],
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

export const builtInPermissions: readonly string[] = [
  ...new Set([...Object.entries(grouped).flatMap(([resource, actions]) => actions.map((a) => `${resource}.${a}`)), ...routePermissions()]),
].sort();

export const readPermissions = () => builtInPermissions.filter((p) => p.endsWith('.read'));
