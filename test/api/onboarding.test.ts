/**
 * Onboarding a tenant over HTTP (docs/onboarding.md; issue 14 item 6): with the internal
 * operator's token, a new company, its first admin key, and with that key a location, a table and
 * a first booking. Nobody else may call the operator routes (403, nothing written), bounds and bad
 * input are 400, and the new tenant sees only its own data.
 */
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, company, devKeys, type Answer } from '../support/http';
import { stageItems, userToken } from '../support/stage-data';
import { expectRefused } from './setup-helpers';

const operator = () => ({ token: devKeys().operatorToken });
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const everyDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ open: '11:00', close: '23:00' }]]));

interface Tenant {
  company: { id: number; name: string; createdAt: string };
  key: string;
}

/** A company made over HTTP by the operator, and its first admin key. */
async function onboard(name = `Onboarded ${unique()}`): Promise<Tenant> {
  const made = await call('POST', '/api/v1/companies', { ...operator(), body: { name } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const key = await call('POST', `/api/v1/companies/${made.body.data.id}/api-keys`, { ...operator(), body: { name: 'First admin key' } });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  return { company: made.body.data, key: key.body.data.key };
}

/** The companies stored with this name (a scan of the stage's table: what was written, whatever the API shows). */
const storedCompaniesNamed = async (name: string) => (await stageItems()).filter((i) => i.entity === 'COMPANY' && i.name === name);

describe('onboarding with the operator token', () => {
  it('creates a company, its first admin key, and with that key a location, a table and a first booking', async () => {
    const name = `Trattoria ${unique()}`;
    const made = await call('POST', '/api/v1/companies', { ...operator(), body: { name } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const tenant = made.body.data;
    expect(tenant).toEqual({ id: expect.any(Number), name, createdAt: expect.stringMatching(/Z$/) });
    expect((await call('GET', `/api/v1/companies/${tenant.id}`, operator())).body.data).toEqual(tenant);

    const issued = await call('POST', `/api/v1/companies/${tenant.id}/api-keys`, { ...operator(), body: { name: 'First admin key' } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const { key, ...record } = issued.body.data;
    expect(key).toMatch(/^brigade_dev_/);
    expect(record).toMatchObject({ name: 'First admin key', tier: 'unlimited', permissions: null, locationIds: null, revokedAt: null, version: 1 });

    // The company has its system roles (written with it), and the key holds the admin role.
    const roles = await call('GET', '/api/v1/roles', { key });
    expect(roles.status).toBe(200);
    expect(roles.body.data.map((r: { name: string; isSystem: boolean }) => [r.name, r.isSystem])).toEqual([['admin', true], ['manager', true], ['staff', true], ['readonly', true]]);
    expect(record.roleId).toBe(roles.body.data[0].id);
    // Its list of keys shows the record once, never the plaintext again.
    expect((await call('GET', '/api/v1/api-keys', { key })).body.data).toEqual([record]);

    // With that key: a location, a table, and a booking for a week ahead at 19:00 (the table chosen by the service).
    const location = await call('POST', '/api/v1/locations', { key, body: { name: 'First bistro', timezone: 'Europe/Stockholm', operatingHours: everyDay } });
    expect(location.status, JSON.stringify(location.body)).toBe(200);
    const locationId = location.body.data.id as number;
    const table = await call('POST', `/api/v1/locations/${locationId}/tables`, { key, body: { name: 'T1', minCapacity: 2, maxCapacity: 4 } });
    expect(table.status, JSON.stringify(table.body)).toBe(200);
    const bookingDate = DateTime.now().setZone('Europe/Stockholm').plus({ days: 7 }).toISODate()!;
    const booking = await call('POST', '/api/v1/bookings', { key, body: { locationId, bookingDate, startTime: '19:00', guestCount: 4, guestName: 'Ada' } });
    expect(booking.status, JSON.stringify(booking.body)).toBe(200);
    expect(booking.body.data).toMatchObject({ locationId, bookingDate, startTime: '19:00', guestCount: 4, guestName: 'Ada', status: 'confirmed', tableIds: [table.body.data.id] });
    const listed = await call('GET', `/api/v1/bookings?locationId=${locationId}`, { key });
    expect(listed.body.data.map((b: { id: string }) => b.id)).toEqual([booking.body.data.id]);

    // The new company's event log begins with its own creation, then its roles (the hidden one has no event), its key, and what the key made.
    const events = await call('GET', '/api/v1/events?limit=100', { key });
    expect(events.status).toBe(200);
    const names = events.body.data.map((e: { event: string }) => e.event);
    expect(names.slice(0, 6)).toEqual(['company.created', 'role.created', 'role.created', 'role.created', 'role.created', 'api-key.created']);
    expect(names).toEqual(expect.arrayContaining(['location.created', 'table.created', 'booking.created']));
    expect(events.body.data[0]).toMatchObject({ resource: 'company', resourceId: String(tenant.id), data: tenant });
  });

  it('gives a key the tier asked for, and counts it like every key made through the API', async () => {
    const { company: tenant } = await onboard();
    const premium = await call('POST', `/api/v1/companies/${tenant.id}/api-keys`, { ...operator(), body: { name: 'Premium admin key', tier: 'premium' } });
    expect(premium.status).toBe(200);
    expect(premium.body.data).toMatchObject({ tier: 'premium', name: 'Premium admin key' });
    const keys = await call('GET', '/api/v1/api-keys', { key: premium.body.data.key });
    expect(keys.body.data.map((k: { name: string }) => k.name)).toEqual(['First admin key', 'Premium admin key']);
    expect(keys.body.meta.pagination.total).toBe(2);
  });

  it('lists companies by id, paged, with a cursor that goes on after the last one listed', async () => {
    const a = await onboard();
    const b = await onboard();
    const first = await call('GET', '/api/v1/companies?limit=1', operator());
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.meta.pagination).toMatchObject({ page: 1, limit: 1, total: expect.any(Number), nextCursor: expect.any(String) });
    expect(first.body.meta.pagination.total).toBeGreaterThanOrEqual(4);
    // The seeded companies have the lowest ids.
    expect(first.body.data[0]).toMatchObject({ id: 1, name: company(1).name });

    // Every company, by cursor: ascending ids, each once, ours among them.
    const seen: { id: number; name: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer = await call('GET', `/api/v1/companies?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, operator());
      expect(page.status).toBe(200);
      seen.push(...page.body.data);
      cursor = page.body.meta.pagination.nextCursor;
    } while (cursor);
    const ids = seen.map((c) => c.id);
    expect(ids).toEqual([...new Set(ids)].sort((x, y) => x - y));
    expect(seen).toEqual(expect.arrayContaining([a.company, b.company]));
  });

  it('answers 404 for a company that does not exist, on get and on its keys, writing nothing', async () => {
    const missing = 99_999_999;
    expectRefused(await call('GET', `/api/v1/companies/${missing}`, operator()), 404, 'NOT_FOUND');
    expectRefused(await call('POST', `/api/v1/companies/${missing}/api-keys`, { ...operator(), body: { name: 'Nobody' } }), 404, 'NOT_FOUND');
    expect((await stageItems()).filter((i) => i.companyId === missing)).toEqual([]);
  });
});

describe('the tenant wall', () => {
  it("keeps the new company's key out of the seeded companies, and theirs out of it", async () => {
    const { company: tenant, key } = await onboard();
    const seededLocation = company(1).locations[0]!.locationId;
    expect((await call('GET', '/api/v1/locations', { key })).body.data).toEqual([]);
    expectRefused(await call('GET', `/api/v1/locations/${seededLocation}`, { key }), 404, 'NOT_FOUND');
    expect((await call('GET', `/api/v1/bookings?locationId=${seededLocation}`, { key })).body.data ?? []).toEqual([]);
    const roles = (await call('GET', '/api/v1/roles', { key })).body.data.map((r: { id: number }) => r.id);
    const seededRoles = (await call('GET', '/api/v1/roles', { key: company(1).keys.admin })).body.data.map((r: { id: number }) => r.id);
    expect(roles.filter((id: number) => seededRoles.includes(id))).toEqual([]);
    // A seeded admin cannot reach the new company's keys or roles either.
    const tenantKeys = (await call('GET', '/api/v1/api-keys', { key })).body.data as { id: string }[];
    expectRefused(await call('GET', `/api/v1/api-keys/${tenantKeys[0]!.id}`, { key: company(1).keys.admin }), 404, 'NOT_FOUND');
    // Nor may the new company's own admin key call the operator routes, for itself or anyone.
    expectRefused(await call('GET', `/api/v1/companies/${tenant.id}`, { key }), 403, 'FORBIDDEN');
  });
});

describe('who may call the operator routes', () => {
  let target: Tenant;
  let user: string;
  beforeAll(async () => {
    target = await onboard();
    // A user of company 1 holding every onboarding permission, who is not an internal operator.
    user = await userToken(1, ['companies.read', 'companies.create', 'companies.manage', 'api_keys.read']);
  });

  const credentials = () => [
    ['a company admin key (its admin role holds every permission)', { key: company(1).keys.admin }],
    ["the new company's own admin key", { key: target.key }],
    ['a user with the permissions who is not an internal operator', { token: user }],
  ] as const;

  it('refuses every credential but an internal operator (403) on creating a company, and stores none', async () => {
    for (const [who, auth] of credentials()) {
      const name = `Refused ${unique()}`;
      expectRefused(await call('POST', '/api/v1/companies', { ...auth, body: { name } }), 403, 'FORBIDDEN');
      expect(await storedCompaniesNamed(name), who).toEqual([]);
    }
  });

  it("refuses them (403) on a company's key, and the company's keys stay as they were", async () => {
    const keysOf = async () => (await call('GET', '/api/v1/api-keys', { key: target.key })).body.data;
    const before = await keysOf();
    for (const [who, auth] of credentials()) {
      const out = await call('POST', `/api/v1/companies/${target.company.id}/api-keys`, { ...auth, body: { name: 'Smuggled key' } });
      expect(out.status, who).toBe(403);
      expect(out.body.error.code, who).toBe('FORBIDDEN');
    }
    expect(await keysOf()).toEqual(before);
  });

  it('refuses them (403) on listing and reading companies', async () => {
    for (const [who, auth] of credentials()) {
      expect((await call('GET', '/api/v1/companies', auth)).status, who).toBe(403);
      expect((await call('GET', `/api/v1/companies/${target.company.id}`, auth)).status, who).toBe(403);
    }
  });

  it('refuses a read-only key and a user without the permission at the permission check (403)', async () => {
    const reader = company(1).keys.readonly;
    expectRefused(await call('GET', '/api/v1/companies', { key: reader }), 403, 'FORBIDDEN');
    const plain = await userToken(1, ['bookings.read']);
    expectRefused(await call('POST', '/api/v1/companies', { token: plain, body: { name: 'Nope' } }), 403, 'FORBIDDEN');
    expectRefused(await call('GET', '/api/v1/companies'), 401, 'UNAUTHENTICATED');
  });
});

describe('bounds and bad input', () => {
  it('refuses a bad company body (400), storing nothing', async () => {
    const long = 'x'.repeat(101);
    for (const [body, path] of [
      [{}, '/name'],
      [{ name: '' }, '/name'],
      [{ name: long }, '/name'],
      [{ name: 42 }, '/name'],
      [{ name: `Extra ${unique()}`, plan: 'gold' }, '/plan'],
    ] as const) {
      const out = await call('POST', '/api/v1/companies', { ...operator(), body });
      expectRefused(out, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(out.body.error.details), JSON.stringify(body)).toContain(path === '/plan' ? 'plan' : 'name');
    }
    expect(await storedCompaniesNamed(long)).toEqual([]);
  });

  it("refuses a bad key body or company id (400), and the company's keys stay as they were", async () => {
    const target = await onboard();
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'Key', tier: 'platinum' }, { name: 'Key', roleId: 1 }, { name: 'Key', permissions: ['bookings.read'] }]) {
      expectRefused(await call('POST', `/api/v1/companies/${target.company.id}/api-keys`, { ...operator(), body }), 400, 'VALIDATION_FAILED');
    }
    for (const id of ['0', '-1', 'abc', '1.5']) {
      expectRefused(await call('GET', `/api/v1/companies/${id}`, operator()), 400, 'VALIDATION_FAILED');
      expectRefused(await call('POST', `/api/v1/companies/${id}/api-keys`, { ...operator(), body: { name: 'Key' } }), 400, 'VALIDATION_FAILED');
    }
    expect((await call('GET', '/api/v1/api-keys', { key: target.key })).body.data).toHaveLength(1);
  });

  it('bounds the list: limit 1-100, page × limit at most 1000', async () => {
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=abc', 'page=11&limit=100', 'cursor=bogus']) {
      expectRefused(await call('GET', `/api/v1/companies?${query}`, operator()), 400, 'VALIDATION_FAILED');
    }
    const page = await call('GET', '/api/v1/companies?limit=100', operator());
    expect(page.status).toBe(200);
    expect(page.body.meta.pagination).toMatchObject({ page: 1, limit: 100 });
  });
});
