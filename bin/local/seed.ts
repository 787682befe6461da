/**
 * The local stage's seed (decisions.md §8): two companies, each with locations of ≥ 8 tables of
 * mixed sizes, opening hours every day and instant confirmation, and four API keys (admin,
 * readonly, standard, premium), plus an internal operator's token.
 */
import { randomUUID } from 'node:crypto';
import { builtInPermissions, readPermissions } from '../../shared/auth/catalog';
import { signLocalToken } from '../../shared/auth/jwt';
import { companies } from '../../shared/data/companies';
import { reserveIdsBelow } from '../../shared/data/ids';
import { locations, type Location } from '../../shared/data/locations';
import { diningTables, type DiningTable } from '../../shared/data/tables';
import { issueApiKey } from '../../shared/domain/apiKeys';

export interface DevKeys {
  baseUrl: string;
  operatorToken: string;
  companies: {
    companyId: number;
    name: string;
    locations: { locationId: number; name: string; timezone: string; tables: { id: string; name: string; minCapacity: number; maxCapacity: number }[] }[];
    keys: { admin: string; readonly: string; standard: string; premium: string };
  }[];
}

/** The internal operator of the local stage (JWT `sub`); INTERNAL_OPERATOR_IDS lists it. */
export const LOCAL_OPERATOR_ID = '1';

const week = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const hours = (day: string) =>
  day === 'friday' || day === 'saturday' ? [{ open: '11:00', close: '23:30' }] : day === 'sunday' ? [{ open: '12:00', close: '21:00' }] : [{ open: '11:00', close: '22:00' }];

/** Name, min and max capacity of the tables every seeded location gets. */
const floorPlan: [string, number, number][] = [
  ['T1', 1, 2], ['T2', 1, 2], ['T3', 2, 4], ['T4', 2, 4], ['T5', 2, 4],
  ['T6', 4, 6], ['T7', 4, 6], ['T8', 6, 8], ['T9', 8, 12], ['T10', 1, 2],
];
/** Pairs of tables that may be pushed together for a larger party. */
const combinable: [string, string][] = [['T3', 'T4'], ['T6', 'T7'], ['T1', 'T2']];

const plan = [
  { companyId: 1, name: 'Brigade Demo Restaurants AB', locations: [
    { id: 101, name: 'Bistro Södermalm', timezone: 'Europe/Stockholm' },
    { id: 102, name: 'Bistro Vasastan', timezone: 'Europe/Stockholm' },
  ] },
  { companyId: 2, name: 'Harbour Kitchen Ltd', locations: [{ id: 103, name: 'Harbour Kitchen Leith', timezone: 'Europe/London' }] },
];

async function seedLocation(companyId: number, spec: (typeof plan)[number]['locations'][number], now: string) {
  const location: Location = {
    id: spec.id,
    name: spec.name,
    timezone: spec.timezone,
    operatingHours: Object.fromEntries(week.map((d) => [d, hours(d)])),
    confirmationMode: 'instant',
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await locations.put(companyId, location);
  const ids = new Map(floorPlan.map(([name]) => [name, randomUUID()]));
  const partners = (name: string) => combinable.filter((pair) => pair.includes(name)).map((pair) => ids.get(pair[0] === name ? pair[1] : pair[0])!);
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
  await Promise.all(tables.map((t) => diningTables.put(companyId, t)));
  return { locationId: spec.id, name: spec.name, timezone: spec.timezone, tables: tables.map(({ id, name, minCapacity, maxCapacity }) => ({ id, name, minCapacity, maxCapacity })) };
}

async function seedKeys(companyId: number) {
  const all = [...builtInPermissions];
  const [admin, readonly, standard, premium] = await Promise.all([
    issueApiKey(companyId, { name: 'Seeded admin key', tier: 'unlimited', permissions: all }),
    issueApiKey(companyId, { name: 'Seeded read-only key', tier: 'standard', permissions: readPermissions() }),
    issueApiKey(companyId, { name: 'Seeded standard key', tier: 'standard', permissions: all }),
    issueApiKey(companyId, { name: 'Seeded premium key', tier: 'premium', permissions: all }),
  ]);
  return { admin: admin!.key, readonly: readonly!.key, standard: standard!.key, premium: premium!.key };
}

/** Writes the seed into an empty table and returns what dev-keys.json holds. */
export async function seed(baseUrl: string, jwtSecret: string): Promise<DevKeys> {
  const now = new Date().toISOString();
  await Promise.all([reserveIdsBelow('company', 100), reserveIdsBelow('location', 1000), reserveIdsBelow('user', 1000)]);
  const seeded = await Promise.all(
    plan.map(async (c) => {
      await companies.put({ id: c.companyId, name: c.name, createdAt: now });
      const [locs, keys] = await Promise.all([Promise.all(c.locations.map((l) => seedLocation(c.companyId, l, now))), seedKeys(c.companyId)]);
      return { companyId: c.companyId, name: c.name, locations: locs, keys };
    }),
  );
  const operatorToken = await signLocalToken({ sub: LOCAL_OPERATOR_ID, cid: 1, perms: [...builtInPermissions] }, jwtSecret);
  return { baseUrl, operatorToken, companies: seeded };
}

/** The seed has run when the first company exists (a persistent DATA_DIR keeps it across starts). */
export const isSeeded = async () => (await companies.get(plan[0]!.companyId)) !== undefined;
