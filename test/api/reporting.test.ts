/**
 * Reporting over HTTP (docs/api.md; docs/conventions.md, “Permissions”; docs/reporting.md): report emails, export
 * settings, the purchase summary (against sums made by hand, both modes, a spring-forward day, and
 * the legacy format byte for byte against a stored answer) and the export (SIE read back to the
 * summary's totals, GBAT10), with bounds, permissions, a location-limited key, the tenant wall,
 * errors and events. The file has a company of its own; the test month's purchases are added to
 * the day totals straight in the stage's table (the summary's seam), at moments around the DST day.
 * Through the typed client (test/support/client.ts); the invalid requests its types forbid, and the
 * 400 cases written as query strings, go through `call()`.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, type BodyOf, type QueryOf } from '../support/client';
import { call } from '../support/http';
import { monthAccounts, monthLegacy, monthSplit, testMonth, type TestMonth } from '../support/reporting-month';
import { accountTotals, readSie } from '../support/sie';
import { stagePurchaseDays } from '../support/stage-data';
import { act, book, eventsOf, newPlace } from './bookings-helpers';
import { admin, expectRefused, keyWith, newLocation, theirAdmin, theirLocation, useOwnCompany } from './setup-helpers';

const own = useOwnCompany('Smörgåsbord reporting');

let here: number;
let month: TestMonth;
beforeAll(async () => {
  here = (await newLocation('Rapport bistro')).id;
  month = testMonth(here);
  await stagePurchaseDays(own().companyId, month.purchases);
});

type SettingsBody = BodyOf<'/api/v1/reporting/export-settings', 'put'>;
type Range = QueryOf<'/api/v1/reporting/export', 'get'>;

const summary = (
  query: QueryOf<'/api/v1/reporting/purchase-summary', 'get'>,
  key = admin(),
  headers: Record<string, string> = {},
) => apiClient({ key }).GET('/api/v1/reporting/purchase-summary', { params: { query }, headers });
/** A query the client's types would refuse (the 400 cases), as its text. */
const summaryOfQuery = (query: string) => call('GET', `/api/v1/reporting/purchase-summary?${query}`, { key: admin() });
const settingsBody = (locationId: number, extra: Partial<SettingsBody> = {}): SettingsBody => ({
  locationId,
  exportType: 'sie',
  includeServiceFees: true,
  accounts: monthAccounts,
  ...extra,
});
const putSettings = (body: SettingsBody, key = admin()) =>
  apiClient({ key }).PUT('/api/v1/reporting/export-settings', { body });
const getSettings = (locationId: number, key = admin()) =>
  apiClient({ key }).GET('/api/v1/reporting/export-settings', { params: { query: { locationId } } });
const emailsOf = (locationId: number, key = admin()) =>
  apiClient({ key }).GET('/api/v1/locations/{locationId}/report-emails', { params: { path: { locationId } } });
const setEmails = (locationId: number, emails: string[], key = admin()) =>
  apiClient({ key }).PATCH('/api/v1/locations/{locationId}/report-emails', {
    params: { path: { locationId } },
    body: { emails },
  });
/** The export's answer: a file (its bytes), or the JSON error envelope. */
async function download(query: Range, key = admin()) {
  const out = await apiClient({ key }).GET('/api/v1/reporting/export', { params: { query }, parseAs: 'arrayBuffer' });
  return {
    status: out.response.status,
    headers: out.response.headers,
    bytes: new Uint8Array(out.data ?? new ArrayBuffer(0)),
    error: out.error,
  };
}
const range = (): Range & { locationId: number } => ({
  locationId: here,
  startDate: month.before,
  endDate: month.after,
});

describe('report emails', () => {
  it('answers [] until set; PATCH keeps each address once (compared without case), GET answers the list; the same list again changes nothing', async () => {
    const place = (await newLocation('Emails bistro')).id;
    expect(dataOf(await emailsOf(place))).toEqual({ locationId: place, emails: [], updatedAt: null });
    const since = new Date().toISOString();
    const set = dataOf(await setEmails(place, ['Books@Example.com', 'chef@example.com', 'books@example.com']));
    expect(set).toEqual({
      locationId: place,
      emails: ['Books@Example.com', 'chef@example.com'],
      updatedAt: expect.any(String),
    });
    expect(dataOf(await emailsOf(place))).toEqual(set);
    const again = dataOf(await setEmails(place, ['books@example.com', 'Books@Example.com', 'chef@example.com']));
    expect(again.emails).toEqual(['books@example.com', 'chef@example.com']);
    expect(dataOf(await setEmails(place, ['books@example.com', 'chef@example.com']))).toEqual(again);
    expect(dataOf(await setEmails(place, [])).emails).toEqual([]);
    const events = await eventsOf('report-emails.updated', String(place), since);
    expect(events.map((e) => e.changes)).toEqual([
      { emails: ['Books@Example.com', 'chef@example.com'] },
      { emails: ['books@example.com', 'chef@example.com'] },
      { emails: [] },
    ]);
    expect(events[0]!.data).toMatchObject({ locationId: place, emails: ['Books@Example.com', 'chef@example.com'] });
  });

  it('refuses bad lists with 400 naming the field (at most 20 addresses, each an address), and writes nothing', async () => {
    const place = (await newLocation('Emails bounds')).id;
    const path = `/api/v1/locations/${place}/report-emails`;
    const twenty = Array.from({ length: 20 }, (_, i) => `a${i}@example.com`);
    expectRefused(await setEmails(place, [...twenty, 'x@example.com']), 400, 'VALIDATION_FAILED', '/emails');
    expectRefused(await setEmails(place, ['not an address']), 400, 'VALIDATION_FAILED', '/emails/0');
    // bodies the client's types forbid
    expectRefused(await call('PATCH', path, { key: admin(), body: {} }), 400, 'VALIDATION_FAILED', '/emails');
    expectRefused(await call('PATCH', path, { key: admin(), body: { emails: [], cc: [] } }), 400, 'VALIDATION_FAILED');
    expect(dataOf(await emailsOf(place)).emails).toEqual([]);
    expect(dataOf(await setEmails(place, twenty)).emails).toHaveLength(20);
  });

  it("403 without reports.read / reports.manage or outside the key's locations; 404 for another company's location or none", async () => {
    expectRefused(await emailsOf(here, await keyWith(['purchases.read'])), 403, 'FORBIDDEN');
    const reader = await keyWith(['reports.read']);
    expect((await emailsOf(here, reader)).response.status).toBe(200);
    expectRefused(await setEmails(here, [], reader), 403, 'FORBIDDEN');
    const elsewhere = await keyWith(['reports.read', 'reports.manage'], [theirLocation() + 100000]);
    expectRefused(await emailsOf(here, elsewhere), 403, 'FORBIDDEN');
    expectRefused(await setEmails(here, [], elsewhere), 403, 'FORBIDDEN');
    expectRefused(await emailsOf(theirLocation()), 404, 'NOT_FOUND');
    expectRefused(await setEmails(theirLocation(), ['a@example.com']), 404, 'NOT_FOUND');
    expectRefused(await emailsOf(here, theirAdmin()), 404, 'NOT_FOUND');
  });
});

describe('export settings', () => {
  it('answers null until set; PUT creates and replaces (defaults: no service fees, no split); GET answers them; each change has its event', async () => {
    const place = (await newLocation('Settings bistro')).id;
    expect(dataOf(await getSettings(place))).toBeNull();
    const since = new Date().toISOString();
    const { includeServiceFees: _, ...plain } = settingsBody(place);
    const created = dataOf(await putSettings({ ...plain, accounts: { ...monthAccounts, serviceFees: undefined } }));
    expect(created).toMatchObject({
      locationId: place,
      exportType: 'sie',
      includeServiceFees: false,
      splitByCostCenter: false,
      version: 1,
    });
    expect(dataOf(await getSettings(place))).toEqual(created);
    const replaced = dataOf(await putSettings(settingsBody(place, { exportType: 'gbat10', splitByCostCenter: true })));
    expect(replaced).toMatchObject({
      exportType: 'gbat10',
      includeServiceFees: true,
      splitByCostCenter: true,
      accounts: monthAccounts,
      version: 2,
      createdAt: created.createdAt,
    });
    expect(
      dataOf(await putSettings(settingsBody(place, { exportType: 'gbat10', splitByCostCenter: true }))).version,
    ).toBe(2);
    const events = await eventsOf('export-settings.updated', String(place), since);
    expect(events).toHaveLength(2);
    expect(events[1]!.changes).toEqual({
      exportType: 'gbat10',
      includeServiceFees: true,
      splitByCostCenter: true,
      accounts: monthAccounts,
    });
  });

  it('refuses bad settings with 400 naming the field, and writes nothing', async () => {
    const place = (await newLocation('Settings bounds')).id;
    // bodies the client's types forbid (or that only the schema's patterns refuse), sent with `call()`
    const cases: [Record<string, unknown>, string][] = [
      [{ ...settingsBody(place), exportType: 'csv' }, '/exportType'],
      [{ locationId: place, exportType: 'sie' }, '/accounts'],
      [settingsBody(place, { accounts: { ...monthAccounts, tips: '289' } }), '/accounts/tips'],
      [settingsBody(place, { accounts: { ...monthAccounts, sales: { '12.50': '3001' } } }), '/accounts/sales'],
      [settingsBody(place, { accounts: { ...monthAccounts, vat: { none: '2611' } } }), '/accounts/vat'],
      [
        settingsBody(place, { accounts: { ...monthAccounts, paymentProviders: { 'Card!': '1580' } } }),
        '/accounts/paymentProviders',
      ],
      [settingsBody(place, { accounts: { ...monthAccounts, serviceFees: undefined } }), '/accounts/serviceFees'],
      [{ ...settingsBody(place), rounding: '3740' }, ''],
      [{ ...settingsBody(place), locationId: undefined }, '/locationId'],
    ];
    for (const [body, path] of cases) {
      const out = await call('PUT', '/api/v1/reporting/export-settings', { key: admin(), body });
      expectRefused(out, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(out.body.error.details), JSON.stringify(body)).toContain(path);
    }
    expect(dataOf(await getSettings(place))).toBeNull();
  });

  it("403 without the permission or outside the key's locations; 404 for another company's location", async () => {
    const reader = await keyWith(['reports.read']);
    expect((await getSettings(here, reader)).response.status).toBe(200);
    expectRefused(await putSettings(settingsBody(here), reader), 403, 'FORBIDDEN');
    expectRefused(await getSettings(here, await keyWith(['purchases.read'])), 403, 'FORBIDDEN');
    const elsewhere = await keyWith(['reports.read', 'reports.manage'], [theirLocation() + 100000]);
    expectRefused(await putSettings(settingsBody(here), elsewhere), 403, 'FORBIDDEN');
    expectRefused(await getSettings(here, elsewhere), 403, 'FORBIDDEN');
    expectRefused(await putSettings(settingsBody(theirLocation())), 404, 'NOT_FOUND');
    expectRefused(await getSettings(theirLocation()), 404, 'NOT_FOUND');
  });
});

describe('the purchase summary', () => {
  it('sums the test month as computed by hand; the legacy format is the stored answer byte for byte', async () => {
    // its text, as sent
    const out = await apiClient({ key: admin() }).GET('/api/v1/reporting/purchase-summary', {
      params: { query: range() },
      parseAs: 'text',
    });
    expect(out.response.status, JSON.stringify(out.error)).toBe(200);
    const text = out.data!;
    expect(JSON.parse(text).data).toEqual(monthLegacy);
    const golden = readFileSync(new URL('../fixtures/purchase-summary-legacy.json', import.meta.url), 'utf8');
    expect(`${text.replace(/"requestId":"[^"]*"/, '')}\n`).toBe(golden);
    expect(dataOf(await summary({ ...range(), splitByCostCenter: false }))).toEqual(monthLegacy);
  });

  it('splits by cost center when asked: rows name their cost center, and costCenters is added', async () => {
    expect(dataOf(await summary({ ...range(), splitByCostCenter: true }))).toEqual(monthSplit);
  });

  it('counts a purchase on its local date: the spring-forward day holds the one just after midnight, the day before the one a minute before it', async () => {
    const day = async (date: string, split: boolean) =>
      dataOf(await summary({ locationId: here, startDate: date, endDate: date, splitByCostCenter: split }));
    expect((await day(month.dst, false)).totals).toEqual({
      count: 3,
      amount: 52500,
      vat: 7321,
      net: 45179,
      tip: 2000,
      serviceFee: 500,
      total: 55000,
    });
    expect((await day(month.before, false)).totals).toMatchObject({ count: 1, amount: 3500, vat: 375 });
    expect((await day(month.after, true)).costCenters).toEqual([
      { costCenterCode: 'BAR', costCenterName: 'Bar', amount: 36000, vat: 7200, net: 28800 },
    ]);
    const empty = dataOf(await summary({ locationId: here, startDate: '2001-01-01', endDate: '2001-01-31' }));
    expect(empty).toEqual({
      totals: { count: 0, amount: 0, vat: 0, net: 0, tip: 0, serviceFee: 0, total: 0 },
      items: [],
      vats: [],
      psp: [],
    });
  });

  it("counts purchases recorded over HTTP: the seam is the purchase's own transaction", async () => {
    const place = await newPlace({}, 1);
    const b = await book(place);
    expect((await act(b.id, 'seat', {})).status).toBe(200);
    const api = apiClient({ key: admin() });
    const tab = { params: { path: { tabId: b.tab.id as string } } };
    dataOf(
      await api.POST('/api/v1/tabs/{tabId}/orders', {
        ...tab,
        body: { items: [{ name: 'Dinner', price: 20000, quantity: 1 }] },
      }),
    );
    const paid = dataOf(
      await api.POST('/api/v1/tabs/{tabId}/purchases', {
        ...tab,
        body: {
          items: [
            { name: 'Dinner', unitPrice: 20000, quantity: 1, vatRate: 12, costCenter: { code: 'K', name: 'Kök' } },
          ],
          tip: 1500,
          paymentProvider: 'swish',
        },
      }),
    );
    const date = paid.localDate;
    expect(
      dataOf(await summary({ locationId: place.id, startDate: date, endDate: date, splitByCostCenter: true })),
    ).toEqual({
      totals: { count: 1, amount: 20000, vat: 2143, net: 17857, tip: 1500, serviceFee: 0, total: 21500 },
      items: [
        {
          itemId: null,
          name: 'Dinner',
          unitPrice: 20000,
          vatRate: 12,
          quantity: 1,
          amount: 20000,
          costCenterCode: 'K',
          costCenterName: 'Kök',
        },
      ],
      vats: [{ vatRate: 12, amount: 20000, vat: 2143, net: 17857, costCenterCode: 'K', costCenterName: 'Kök' }],
      psp: [
        { paymentProvider: 'swish', count: 1, amount: 0, tip: 1500, serviceFee: 0, total: 1500 },
        {
          paymentProvider: 'swish',
          count: 1,
          amount: 20000,
          tip: 0,
          serviceFee: 0,
          total: 20000,
          costCenterCode: 'K',
          costCenterName: 'Kök',
        },
      ],
      costCenters: [{ costCenterCode: 'K', costCenterName: 'Kök', amount: 20000, vat: 2143, net: 17857 }],
    });
  });

  it('refuses bad ranges with 400 naming the field: dates that are none, the end before the start, more than 366 days; a location is required', async () => {
    const cases: [string, string][] = [
      [`locationId=${here}&startDate=2026-02-30&endDate=2026-03-01`, '/startDate'],
      [`locationId=${here}&startDate=2026-3-1&endDate=2026-03-01`, '/startDate'],
      [`locationId=${here}&endDate=2026-03-01`, '/startDate'],
      [`locationId=${here}&startDate=2026-03-02&endDate=2026-03-01`, '/endDate'],
      [`locationId=${here}&startDate=2024-01-01&endDate=2025-01-01`, '/endDate'],
      [`locationId=${here}&startDate=2024-01-01&endDate=2024-12-31&splitByCostCenter=maybe`, '/splitByCostCenter'],
      [`startDate=2024-01-01&endDate=2024-01-31`, '/locationId'],
    ];
    for (const [query, path] of cases) expectRefused(await summaryOfQuery(query), 400, 'VALIDATION_FAILED', path);
    // 366 days, a leap year's, is the most
    expect((await summary({ locationId: here, startDate: '2024-01-01', endDate: '2024-12-31' })).response.status).toBe(
      200,
    );
  });

  it("takes the location from X-Location-Id; 403 without reports.read or outside the key's locations; 404 for another company's location", async () => {
    const byHeader = await summary({ startDate: month.before, endDate: month.after }, admin(), {
      'X-Location-Id': String(here),
    });
    expect(dataOf(byHeader)).toEqual(monthLegacy);
    expectRefused(await summary(range(), await keyWith(['purchases.read'])), 403, 'FORBIDDEN');
    expect(dataOf(await summary(range(), await keyWith(['reports.read'], [here])))).toEqual(monthLegacy);
    expectRefused(
      await summary(range(), await keyWith(['reports.read'], [theirLocation() + 100000])),
      403,
      'FORBIDDEN',
    );
    expectRefused(await summary({ ...range(), locationId: theirLocation() }), 404, 'NOT_FOUND');
    expectRefused(await summary(range(), theirAdmin()), 404, 'NOT_FOUND');
  });
});

describe('the export', () => {
  it("SIE 4 in code page 437: one voucher per day, each balanced, read back to the summary's totals", async () => {
    dataOf(await putSettings(settingsBody(here)));
    const file = await download(range());
    expect(file.status, JSON.stringify(file.error)).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/plain; charset=IBM437');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="brigade-${here}-${month.before}-${month.after}.si"`,
    );
    expect(file.bytes.includes(0x94), 'ö of the company name in code page 437').toBe(true);
    const sie = readSie(file.bytes);
    expect(sie.records.get('#FNAMN')).toEqual([['Smörgåsbord reporting']]);
    expect(sie.vouchers.map((v) => v.date)).toEqual(
      [month.before, month.dst, month.after].map((d) => d.replaceAll('-', '')),
    );
    for (const v of sie.vouchers)
      expect(
        v.trans.reduce((sum, t) => sum + t.amount, 0),
        `#VER of ${v.date}`,
      ).toBe(0);

    const data = dataOf(await summary(range()));
    const totals = accountTotals(sie);
    const credit = (accounts: Record<string, string>) =>
      -Object.values(accounts).reduce((sum, a) => sum + (totals.get(a) ?? 0), 0);
    expect(credit(monthAccounts.sales)).toBe(data.totals.net);
    expect(credit(monthAccounts.vat)).toBe(data.totals.vat);
    for (const v of data.vats)
      expect(-totals.get(monthAccounts.sales[(v.vatRate ?? 'none') as keyof typeof monthAccounts.sales])!).toBe(v.net);
    for (const p of data.psp)
      expect(
        totals.get(monthAccounts.paymentProviders[p.paymentProvider as keyof typeof monthAccounts.paymentProviders]),
      ).toBe(p.total);
    expect(-totals.get(monthAccounts.tips)!).toBe(data.totals.tip);
    expect(-totals.get(monthAccounts.serviceFees)!).toBe(data.totals.serviceFee);
  });

  it('GBAT10 as its CSV: 29 columns, one line per posting, each voucher balanced', async () => {
    const place = (await newLocation('Gbat bistro')).id;
    const m = testMonth(place);
    await stagePurchaseDays(own().companyId, m.purchases);
    dataOf(await putSettings(settingsBody(place, { exportType: 'gbat10', splitByCostCenter: true })));
    const file = await download({ locationId: place, startDate: m.before, endDate: m.after });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toContain('.csv"');
    const rows = Buffer.from(file.bytes)
      .toString('utf8')
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split(';'));
    expect(rows.every((r) => r.length === 29 && r[0] === 'GBAT10')).toBe(true);
    const byVoucher = new Map<string, number>();
    for (const r of rows) byVoucher.set(r[1]!, (byVoucher.get(r[1]!) ?? 0) + Math.round(Number(r[8]) * 100));
    expect([...byVoucher.values()]).toEqual([0, 0, 0]);
    expect(rows.some((r) => r[23] === 'BAR')).toBe(true);
  });

  it("the README's evening paid by plain amounts: the summary has the VAT per rate, SIE and GBAT10 post to the rate accounts", async () => {
    // Orders at 12 % and 25 % (the README's evening), the bill of 700.00 paid by plain amounts
    // without VAT rows: each payment shares out the bill's rows (docs/purchases.md).
    const place = await newPlace({}, 1);
    const b = await book(place);
    expect((await act(b.id, 'seat', {})).status).toBe(200);
    const api = apiClient({ key: admin() });
    const tab = { params: { path: { tabId: b.tab.id as string } } };
    for (const line of [
      { name: 'Steak', price: 29000, quantity: 2, vatRate: 12 },
      { name: 'Wine', price: 12000, quantity: 1, vatRate: 25 },
    ])
      dataOf(await api.POST('/api/v1/tabs/{tabId}/orders', { ...tab, body: { items: [line] } }));
    const pay = async (body: BodyOf<'/api/v1/tabs/{tabId}/purchases', 'post'>) =>
      dataOf(await api.POST('/api/v1/tabs/{tabId}/purchases', { ...tab, body }));
    const first = await pay({ amount: 40000, paymentProvider: 'card' });
    expect(first.vatRows).toEqual([
      { vatRate: 12, amount: 33143, vat: 3551 },
      { vatRate: 25, amount: 6857, vat: 1371 },
    ]);
    const last = await pay({ amount: 30000, tip: 3000, paymentProvider: 'card' });
    expect(last).toMatchObject({
      vatRows: [
        { vatRate: 12, amount: 58000 - 33143, vat: 6214 - 3551 },
        { vatRate: 25, amount: 12000 - 6857, vat: 2400 - 1371 },
      ],
      tab: { status: 'closed', dueCents: 0 },
    });

    const days = { locationId: place.id, startDate: first.localDate, endDate: last.localDate };
    const sum = dataOf(await summary(days));
    expect(sum.totals).toEqual({
      count: 2,
      amount: 70000,
      vat: 6214 + 2400,
      net: 70000 - 8614,
      tip: 3000,
      serviceFee: 0,
      total: 73000,
    });
    // No row without a rate: every krona of the bill is at its rate.
    expect(sum.vats).toEqual([
      { vatRate: 12, amount: 58000, vat: 6214, net: 51786 },
      { vatRate: 25, amount: 12000, vat: 2400, net: 9600 },
    ]);

    // The README's export settings: food and wine go to their rate's sales and VAT accounts, none to "no VAT rate".
    const accounts = {
      sales: { '25': '3001', '12': '3002', none: '3000' },
      vat: { '25': '2611', '12': '2621' },
      paymentProviders: { card: '1580' },
      tips: '2890',
    };
    dataOf(await putSettings({ locationId: place.id, exportType: 'sie', accounts }));
    const sie = await download(days);
    expect(sie.status, JSON.stringify(sie.error)).toBe(200);
    const totals = accountTotals(readSie(sie.bytes));
    expect(Object.fromEntries(totals)).toEqual({
      '1580': 73000,
      '3002': -51786,
      '2621': -6214,
      '3001': -9600,
      '2611': -2400,
      '2890': -3000,
    });
    expect(totals.has('3000')).toBe(false);

    dataOf(await putSettings({ locationId: place.id, exportType: 'gbat10', accounts }));
    const gbat = await download(days);
    expect(gbat.status).toBe(200);
    const posted = new Map<string, number>();
    for (const r of Buffer.from(gbat.bytes).toString('utf8').trimEnd().split('\r\n')) {
      const cols = r.split(';');
      posted.set(cols[6]!, (posted.get(cols[6]!) ?? 0) + Math.round(Number(cols[8]) * 100));
    }
    expect(Object.fromEntries(posted)).toEqual(Object.fromEntries(totals));
  });

  it('answers errors in the JSON envelope: 409 without settings, 422 naming every unmapped account, 400 for a bad range, 403, 404', async () => {
    const place = (await newLocation('Export errors')).id;
    const m = testMonth(place);
    await stagePurchaseDays(own().companyId, m.purchases);
    const query = { locationId: place, startDate: m.before, endDate: m.after };
    const none = await download(query);
    expect(none.status).toBe(409);
    expect(none.headers.get('content-type')).toBe('application/json');
    expect(none.error).toMatchObject({ status: 'error', error: { code: 'CONFLICT' } });

    dataOf(
      await putSettings(
        settingsBody(place, {
          accounts: { ...monthAccounts, sales: { '25': '3001' }, paymentProviders: { stripe: '1580' } },
        }),
      ),
    );
    const unmapped = await download(query);
    expect(unmapped.status).toBe(422);
    expect(unmapped.error?.error.details.map((d) => d.path).sort()).toEqual([
      '/accounts/paymentProviders/adyen',
      '/accounts/paymentProviders/cash',
      '/accounts/paymentProviders/swish',
      '/accounts/sales/12',
      '/accounts/sales/none',
    ]);
    // once every rate and provider of the range is mapped, it exports
    dataOf(
      await putSettings(
        settingsBody(place, { accounts: { ...monthAccounts, sales: { '25': '3001', '12': '3002', none: '3000' } } }),
      ),
    );
    expect((await download(query)).status).toBe(200);

    const bad = await download({ locationId: place, startDate: m.after, endDate: m.before });
    expect(bad.status).toBe(400);
    expect(bad.error?.error.details[0]?.path).toBe('/endDate');
    expect((await download(query, await keyWith(['purchases.read']))).status).toBe(403);
    expect((await download(query, await keyWith(['reports.read'], [theirLocation() + 100000]))).status).toBe(403);
    expect((await download(query, theirAdmin())).status).toBe(404);
  });
});
