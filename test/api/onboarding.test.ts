/**
 * Onboarding a tenant over HTTP (docs/onboarding.md): with the internal
 * operator's token, a new company, its first admin key, and with that key a location, a table and
 * a first booking. Nobody else may call the operator routes (403, nothing written), bounds and bad
 * input are 400, and the new tenant sees only its own data. Through the typed client
 * (test/support/client.ts); the invalid requests its types forbid go through `call()`.
 */
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, successOf, type DataOf, type SuccessOf } from '../support/client';
import { call, company, devKeys } from '../support/http';
import { stageItems, userToken } from '../support/stage-data';
import { expectRefused } from './setup-helpers';

/** The internal operator's credential, for `call()`, and a client acting as the operator. */
const operatorToken = () => ({ token: devKeys().operatorToken });
const operator = () => apiClient(operatorToken());
const companyPath = (companyId: number) => ({ params: { path: { companyId } } });
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const everyDay = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    [{ open: '11:00', close: '23:00' }],
  ]),
);

interface Tenant {
  company: DataOf<'/api/v1/companies', 'post'>;
  key: string;
}

/** A company made over HTTP by the operator, and its first admin key. */
async function onboard(name = `Onboarded ${unique()}`): Promise<Tenant> {
  const made = dataOf(await operator().POST('/api/v1/companies', { body: { name } }));
  const key = dataOf(
    await operator().POST('/api/v1/companies/{companyId}/api-keys', {
      ...companyPath(made.id),
      body: { name: 'First admin key' },
    }),
  );
  return { company: made, key: key.key };
}

/** The companies stored with this name (a scan of the stage's table: what was written, whatever the API shows). */
const storedCompaniesNamed = async (name: string) =>
  (await stageItems()).filter((i) => i.entity === 'COMPANY' && i.name === name);

describe('onboarding with the operator token', () => {
  it('creates a company, its first admin key, and with that key a location, a table and a first booking', async () => {
    const name = `Trattoria ${unique()}`;
    const tenant = dataOf(await operator().POST('/api/v1/companies', { body: { name } }));
    expect(tenant).toEqual({ id: expect.any(Number), name, createdAt: expect.stringMatching(/Z$/) });
    expect(dataOf(await operator().GET('/api/v1/companies/{companyId}', companyPath(tenant.id)))).toEqual(tenant);

    const issued = dataOf(
      await operator().POST('/api/v1/companies/{companyId}/api-keys', {
        ...companyPath(tenant.id),
        body: { name: 'First admin key' },
      }),
    );
    const { key, ...record } = issued;
    expect(key).toMatch(/^brigade_dev_/);
    expect(record).toMatchObject({
      name: 'First admin key',
      tier: 'unlimited',
      permissions: null,
      locationIds: null,
      revokedAt: null,
      version: 1,
    });

    // The company has its system roles (written with it), and the key holds the admin role.
    const api = apiClient({ key });
    const roles = dataOf(await api.GET('/api/v1/roles'));
    expect(roles.map((r) => [r.name, r.isSystem])).toEqual([
      ['admin', true],
      ['manager', true],
      ['staff', true],
      ['readonly', true],
    ]);
    expect(record.roleId).toBe(roles[0]!.id);
    // Its list of keys shows the record once, never the plaintext again.
    expect(dataOf(await api.GET('/api/v1/api-keys'))).toEqual([record]);

    // With that key: a location, a table, and a booking for a week ahead at 19:00 (the table chosen by the service).
    const location = dataOf(
      await api.POST('/api/v1/locations', {
        body: { name: 'First bistro', timezone: 'Europe/Stockholm', operatingHours: everyDay },
      }),
    );
    const locationId = location.id;
    const table = dataOf(
      await api.POST('/api/v1/locations/{locationId}/tables', {
        params: { path: { locationId } },
        body: { name: 'T1', minCapacity: 2, maxCapacity: 4 },
      }),
    );
    const bookingDate = DateTime.now().setZone('Europe/Stockholm').plus({ days: 7 }).toISODate()!;
    const booking = dataOf(
      await api.POST('/api/v1/bookings', {
        body: { locationId, bookingDate, startTime: '19:00', guestCount: 4, guestName: 'Ada' },
      }),
    );
    expect(booking).toMatchObject({
      locationId,
      bookingDate,
      startTime: '19:00',
      guestCount: 4,
      guestName: 'Ada',
      status: 'confirmed',
      tableIds: [table.id],
    });
    const listed = dataOf(await api.GET('/api/v1/bookings', { params: { query: { locationId } } }));
    expect(listed.map((b) => b.id)).toEqual([booking.id]);

    // The new company's event log begins with its own creation, then its roles (the hidden one has no event), its key, and what the key made.
    const events = dataOf(await api.GET('/api/v1/events', { params: { query: { limit: 100 } } }));
    const names = events.map((e) => e.event);
    expect(names.slice(0, 6)).toEqual([
      'company.created',
      'role.created',
      'role.created',
      'role.created',
      'role.created',
      'api-key.created',
    ]);
    expect(names).toEqual(expect.arrayContaining(['location.created', 'table.created', 'booking.created']));
    expect(events[0]).toMatchObject({ resource: 'company', resourceId: String(tenant.id), data: tenant });
  });

  it('gives a key the tier asked for, and counts it like every key made through the API', async () => {
    const { company: tenant } = await onboard();
    const premium = dataOf(
      await operator().POST('/api/v1/companies/{companyId}/api-keys', {
        ...companyPath(tenant.id),
        body: { name: 'Premium admin key', tier: 'premium' },
      }),
    );
    expect(premium).toMatchObject({ tier: 'premium', name: 'Premium admin key' });
    const keys = successOf(await apiClient({ key: premium.key }).GET('/api/v1/api-keys'));
    expect(keys.data.map((k) => k.name)).toEqual(['First admin key', 'Premium admin key']);
    expect(keys.meta.pagination.total).toBe(2);
  });

  it('lists companies by id, paged, with a cursor that goes on after the last one listed', async () => {
    const a = await onboard();
    const b = await onboard();
    const first = successOf(await operator().GET('/api/v1/companies', { params: { query: { limit: 1 } } }));
    expect(first.data).toHaveLength(1);
    expect(first.meta.pagination).toMatchObject({
      page: 1,
      limit: 1,
      total: expect.any(Number),
      nextCursor: expect.any(String),
    });
    expect(first.meta.pagination.total).toBeGreaterThanOrEqual(4);
    // The seeded companies have the lowest ids.
    expect(first.data[0]).toMatchObject({ id: 1, name: company(1).name });

    // Every company, by cursor: ascending ids, each once, ours among them.
    const seen: Tenant['company'][] = [];
    let cursor: string | null = null;
    do {
      const page: SuccessOf<'/api/v1/companies', 'get'> = successOf(
        await operator().GET('/api/v1/companies', { params: { query: { limit: 100, cursor: cursor ?? undefined } } }),
      );
      seen.push(...page.data);
      cursor = page.meta.pagination.nextCursor;
    } while (cursor);
    const ids = seen.map((c) => c.id);
    expect(ids).toEqual([...new Set(ids)].sort((x, y) => x - y));
    expect(seen).toEqual(expect.arrayContaining([a.company, b.company]));
  });

  it('answers 404 for a company that does not exist, on get and on its keys, writing nothing', async () => {
    const missing = 99_999_999;
    expectRefused(await operator().GET('/api/v1/companies/{companyId}', companyPath(missing)), 404, 'NOT_FOUND');
    expectRefused(
      await operator().POST('/api/v1/companies/{companyId}/api-keys', {
        ...companyPath(missing),
        body: { name: 'Nobody' },
      }),
      404,
      'NOT_FOUND',
    );
    expect((await stageItems()).filter((i) => i.companyId === missing)).toEqual([]);
  });
});

describe('the tenant wall', () => {
  it("keeps the new company's key out of the seeded companies, and theirs out of it", async () => {
    const { company: tenant, key } = await onboard();
    const api = apiClient({ key });
    const seeded = apiClient({ key: company(1).keys.admin });
    const seededLocation = company(1).locations[0]!.locationId;
    expect(dataOf(await api.GET('/api/v1/locations'))).toEqual([]);
    expectRefused(
      await api.GET('/api/v1/locations/{locationId}', { params: { path: { locationId: seededLocation } } }),
      404,
      'NOT_FOUND',
    );
    expect(
      (await api.GET('/api/v1/bookings', { params: { query: { locationId: seededLocation } } })).data?.data ?? [],
    ).toEqual([]);
    const roles = dataOf(await api.GET('/api/v1/roles')).map((r) => r.id);
    const seededRoles = dataOf(await seeded.GET('/api/v1/roles')).map((r) => r.id);
    expect(roles.filter((id) => seededRoles.includes(id))).toEqual([]);
    // A seeded admin cannot reach the new company's keys or roles either.
    const tenantKeys = dataOf(await api.GET('/api/v1/api-keys'));
    expectRefused(
      await seeded.GET('/api/v1/api-keys/{id}', { params: { path: { id: tenantKeys[0]!.id } } }),
      404,
      'NOT_FOUND',
    );
    // Nor may the new company's own admin key call the operator routes, for itself or anyone.
    expectRefused(await api.GET('/api/v1/companies/{companyId}', companyPath(tenant.id)), 403, 'FORBIDDEN');
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

  const credentials = () =>
    [
      ['a company admin key (its admin role holds every permission)', { key: company(1).keys.admin }],
      ["the new company's own admin key", { key: target.key }],
      ['a user with the permissions who is not an internal operator', { token: user }],
    ] as const;

  it('refuses every credential but an internal operator (403) on creating a company, and stores none', async () => {
    for (const [who, auth] of credentials()) {
      const name = `Refused ${unique()}`;
      expectRefused(await apiClient(auth).POST('/api/v1/companies', { body: { name } }), 403, 'FORBIDDEN');
      expect(await storedCompaniesNamed(name), who).toEqual([]);
    }
  });

  it("refuses them (403) on a company's key, and the company's keys stay as they were", async () => {
    const keysOf = async () => dataOf(await apiClient({ key: target.key }).GET('/api/v1/api-keys'));
    const before = await keysOf();
    for (const [who, auth] of credentials()) {
      const out = await apiClient(auth).POST('/api/v1/companies/{companyId}/api-keys', {
        ...companyPath(target.company.id),
        body: { name: 'Smuggled key' },
      });
      expect(out.response.status, who).toBe(403);
      expect(out.error?.error.code, who).toBe('FORBIDDEN');
    }
    expect(await keysOf()).toEqual(before);
  });

  it('refuses them (403) on listing and reading companies', async () => {
    for (const [who, auth] of credentials()) {
      expect((await apiClient(auth).GET('/api/v1/companies')).response.status, who).toBe(403);
      expect(
        (await apiClient(auth).GET('/api/v1/companies/{companyId}', companyPath(target.company.id))).response.status,
        who,
      ).toBe(403);
    }
  });

  it('refuses a read-only key and a user without the permission at the permission check (403)', async () => {
    expectRefused(await apiClient({ key: company(1).keys.readonly }).GET('/api/v1/companies'), 403, 'FORBIDDEN');
    const plain = await userToken(1, ['bookings.read']);
    expectRefused(
      await apiClient({ token: plain }).POST('/api/v1/companies', { body: { name: 'Nope' } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await apiClient().GET('/api/v1/companies'), 401, 'UNAUTHENTICATED');
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
      const out = await call('POST', '/api/v1/companies', { ...operatorToken(), body });
      expectRefused(out, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(out.body.error.details), JSON.stringify(body)).toContain(
        path === '/plan' ? 'plan' : 'name',
      );
    }
    expect(await storedCompaniesNamed(long)).toEqual([]);
  });

  it("refuses a bad key body or company id (400), and the company's keys stay as they were", async () => {
    const target = await onboard();
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(101) },
      { name: 'Key', tier: 'platinum' },
      { name: 'Key', roleId: 1 },
      { name: 'Key', permissions: ['bookings.read'] },
    ]) {
      expectRefused(
        await call('POST', `/api/v1/companies/${target.company.id}/api-keys`, { ...operatorToken(), body }),
        400,
        'VALIDATION_FAILED',
      );
    }
    for (const id of ['0', '-1', 'abc', '1.5']) {
      expectRefused(await call('GET', `/api/v1/companies/${id}`, operatorToken()), 400, 'VALIDATION_FAILED');
      expectRefused(
        await call('POST', `/api/v1/companies/${id}/api-keys`, { ...operatorToken(), body: { name: 'Key' } }),
        400,
        'VALIDATION_FAILED',
      );
    }
    expect(dataOf(await apiClient({ key: target.key }).GET('/api/v1/api-keys'))).toHaveLength(1);
  });

  it('bounds the list: limit 1-100, page × limit at most 1000', async () => {
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=abc', 'page=11&limit=100', 'cursor=bogus']) {
      expectRefused(await call('GET', `/api/v1/companies?${query}`, operatorToken()), 400, 'VALIDATION_FAILED');
    }
    const page = successOf(await operator().GET('/api/v1/companies', { params: { query: { limit: 100 } } }));
    expect(page.meta.pagination).toMatchObject({ page: 1, limit: 100 });
  });
});
