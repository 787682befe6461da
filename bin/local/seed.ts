/**
 * The local stage's seed (docs/decisions.md, “The local stage”): two companies, each with locations of ≥ 8 tables of
 * mixed sizes and opening hours every day (confirmation is instant, the booking settings'
 * default), and four API keys (admin, readonly, standard, premium), plus an internal operator's token.
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_ROLE, builtInPermissions, readPermissions, tenantPermissions } from '../../shared/auth/catalog';
import { signLocalToken } from '../../shared/auth/jwt';
import { companies } from '../../shared/data/companies';
import { reserveIdsBelow } from '../../shared/data/ids';
import type { Principal } from '../../shared/auth/principal';
import { diningTables, type DiningTable } from '../../shared/data/tables';
import { issueApiKey } from '../../shared/domain/apiKeys';
import { onboardCompany } from '../../shared/domain/companies';
import { syncBuiltInPermissions } from '../../shared/domain/permissions';
import { createLocation } from '../../shared/domain/locations';
import { newEvent } from '../../shared/events/catalog';
import { weekdays, type OperatingHours, type Weekday } from '../../shared/schemas/locations';

export interface DevKeys {
  baseUrl: string;
  operatorToken: string;
  companies: {
    companyId: number;
    name: string;
    locations: {
      locationId: number;
      name: string;
      timezone: string;
      tables: { id: string; name: string; minCapacity: number; maxCapacity: number }[];
    }[];
    keys: { admin: string; readonly: string; standard: string; premium: string };
  }[];
}

/** The internal operator of the local stage (JWT `sub`); INTERNAL_OPERATOR_IDS lists it. */
export const LOCAL_OPERATOR_ID = '1';

const hours = (day: Weekday) =>
  day === 'friday' || day === 'saturday'
    ? [{ open: '11:00', close: '23:30' }]
    : day === 'sunday'
      ? [{ open: '12:00', close: '21:00' }]
      : [{ open: '11:00', close: '22:00' }];

/** Name, min and max capacity of the tables every seeded location gets. */
const floorPlan: [string, number, number][] = [
  ['T1', 1, 2],
  ['T2', 1, 2],
  ['T3', 2, 4],
  ['T4', 2, 4],
  ['T5', 2, 4],
  ['T6', 4, 6],
  ['T7', 4, 6],
  ['T8', 6, 8],
  ['T9', 8, 12],
  ['T10', 1, 2],
];
/** Pairs of tables that may be pushed together for a larger party. */
const combinable: [string, string][] = [
  ['T3', 'T4'],
  ['T6', 'T7'],
  ['T1', 'T2'],
];

const plan = [
  {
    companyId: 1,
    name: 'Brigade Demo Restaurants AB',
    locations: [
      { id: 101, name: 'Bistro Södermalm', timezone: 'Europe/Stockholm', country: 'SE' },
      { id: 102, name: 'Bistro Vasastan', timezone: 'Europe/Stockholm', country: 'SE' },
    ],
  },
  {
    companyId: 2,
    name: 'Harbour Kitchen Ltd',
    locations: [{ id: 103, name: 'Harbour Kitchen Leith', timezone: 'Europe/London', country: 'GB' }],
  },
];

/** The company's own administrator, for the seed: it adds each location through the domain, as the API would. */
const administrator = (companyId: number): Principal => ({
  kind: 'user',
  companyId,
  permissions: [],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: `seed:${companyId}`,
  internalOperator: false,
});

async function seedLocation(companyId: number, spec: (typeof plan)[number]['locations'][number]) {
  const operatingHours = Object.fromEntries(weekdays.map((d) => [d, hours(d)])) as OperatingHours;
  const { createdAt: now } = await createLocation(
    administrator(companyId),
    { name: spec.name, timezone: spec.timezone, country: spec.country, operatingHours },
    spec.id,
  );
  // The whole floor plan in one transaction (the API adds one table per call), partner lists symmetric by construction.
  const ids = new Map(floorPlan.map(([name]) => [name, randomUUID()]));
  const partners = (name: string) =>
    combinable
      .filter((pair) => pair.includes(name))
      .map((pair) => ids.get(pair[0] === name ? pair[1] : pair[0])!)
      .sort();
  const tables: DiningTable[] = floorPlan.map(([name, minCapacity, maxCapacity]) => ({
    id: ids.get(name)!,
    locationId: spec.id,
    name,
    minCapacity,
    maxCapacity,
    combinableWith: partners(name),
    createdAt: now,
    updatedAt: now,
    version: 1,
  }));
  await diningTables.create(
    companyId,
    spec.id,
    tables,
    [],
    tables.map((t) => newEvent(companyId, 'table.created', t.id, { ...t })),
  );
  return {
    locationId: spec.id,
    name: spec.name,
    timezone: spec.timezone,
    tables: tables.map(({ id, name, minCapacity, maxCapacity }) => ({ id, name, minCapacity, maxCapacity })),
  };
}

/** The admin key holds the admin role: every permission, including those the platform adds later. */
async function seedKeys(companyId: number, adminRoleId: number) {
  const all = [...tenantPermissions];
  const [admin, readonly, standard, premium] = await Promise.all([
    issueApiKey(companyId, { name: 'Seeded admin key', tier: 'unlimited', roleId: adminRoleId }),
    issueApiKey(companyId, { name: 'Seeded read-only key', tier: 'standard', permissions: readPermissions() }),
    issueApiKey(companyId, { name: 'Seeded standard key', tier: 'standard', permissions: all }),
    issueApiKey(companyId, { name: 'Seeded premium key', tier: 'premium', permissions: all }),
  ]);
  return { admin: admin!.key, readonly: readonly!.key, standard: standard!.key, premium: premium!.key };
}

/** Writes the seed into an empty table and returns what dev-keys.json holds. */
export async function seed(baseUrl: string, jwtSecret: string): Promise<DevKeys> {
  await Promise.all([
    reserveIdsBelow('company', 100),
    reserveIdsBelow('location', 1000),
    reserveIdsBelow('user', 1000),
  ]);
  await syncBuiltInPermissions(); // before the roles, which name permissions by id
  const seeded = await Promise.all(
    plan.map(async (c) => {
      const { roleIds } = await onboardCompany({ id: c.companyId, name: c.name });
      const [locs, keys] = await Promise.all([
        Promise.all(c.locations.map((l) => seedLocation(c.companyId, l))),
        seedKeys(c.companyId, roleIds[ADMIN_ROLE]!),
      ]);
      return { companyId: c.companyId, name: c.name, locations: locs, keys };
    }),
  );
  const operatorToken = await signLocalToken(
    { sub: LOCAL_OPERATOR_ID, cid: 1, perms: [...builtInPermissions] },
    jwtSecret,
  );
  return { baseUrl, operatorToken, companies: seeded };
}

/** The seed has run when the first company exists (a persistent DATA_DIR keeps it across starts). */
export const isSeeded = async () => (await companies.get(plan[0]!.companyId)) !== undefined;
