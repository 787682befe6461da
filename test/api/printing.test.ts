/**
 * Printing over HTTP (docs/api.md; docs/conventions.md, “Permissions”; docs/printing.md): printer groups,
 * terminals, the terminal pre-check print job, its preview and the printer agent's report (a
 * failure raises an alert): every operation, every bound, permissions, a location-limited key, the
 * tenant wall, and the events each emits. The file acts as a company of its own.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderReceipt } from '../../shared/domain/printing/receipt';
import { call } from '../support/http';
import { storedTerminalName, tabWithoutBooking } from '../support/stage-data';
import { eventsOf } from './bookings-helpers';
import {
  admin,
  expectRefused,
  keyWith,
  newLocation,
  theirAdmin,
  theirLocation,
  unknownUuid,
  useOwnCompany,
} from './setup-helpers';
import type { Schemas } from '../support/client';

const own = useOwnCompany('Printing test company');

let here: number;
let there: number;
beforeAll(async () => {
  here = (await newLocation('Printing bistro', 'Europe/Stockholm')).id;
  there = (await newLocation('Printing annex', 'Europe/London')).id;
});

const ok = async (method: string, path: string, body?: unknown, key = admin()) => {
  const out = await call(method, path, { key, ...(body === undefined ? {} : { body }) });
  expect(out.status, `${method} ${path}: ${JSON.stringify(out.body)}`).toBe(200);
  return out.body.data;
};
const newGroup = (extra: Record<string, unknown> = {}, key = admin()) =>
  ok('POST', '/api/v1/printer-groups', { locationId: here, name: 'Bar printer', ...extra }, key);
const putTerminal = (id: string, extra: Record<string, unknown> = {}, key = admin()) =>
  call('PUT', `/api/v1/terminals/${id}`, { key, body: { locationId: here, name: 'Bar 1', ...extra } });
async function newTerminal(extra: Record<string, unknown> = {}) {
  const out = await putTerminal(randomUUID(), extra);
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data as Schemas['Terminal'];
}
/** A terminal at `here` printing to a new group there, and an open tab at `here` whose bill is content()'s total (254.00). */
async function counter(width = 32) {
  const group = await newGroup({ width, name: 'Pass printer' });
  const terminal = await newTerminal({ printerGroupId: group.id, name: 'Bar 1' });
  const tab = await tabWithoutBooking(own().companyId, here);
  await ok('POST', `/api/v1/tabs/${tab.id}/orders`, {
    items: [
      {
        name: 'Toast Skagen',
        price: 14500,
        vatRate: 12,
        quantity: 1,
        modifications: [{ name: 'Extra roe', price: 3000 }],
      },
      { name: 'Lager', price: 7900, vatRate: 25, quantity: 1 },
    ],
  });
  return { group, terminal, tab };
}
const content = (extra: Record<string, unknown> = {}) => ({
  tableName: 'T4',
  totalAmount: 25400,
  lineItems: [
    { name: 'Toast Skagen', price: 14500, vatRate: 12, modifications: [{ name: 'Extra roe', price: 3000 }] },
    { name: 'Lager', price: 7900, vatRate: 25, modifications: [] },
  ],
  ...extra,
});
/** The pre-check of a tab with nothing ordered (its bill is 0). */
const nothingOrdered = content({ lineItems: [], totalAmount: 0 });
const preCheckBody = (
  s: { terminal: Schemas['Terminal']; tab: { id: string } },
  extra: Record<string, unknown> = {},
) => ({ locationId: here, tabId: s.tab.id, terminalId: s.terminal.id, content: content(), ...extra });
const preCheck = (body: unknown, key = admin()) => call('POST', '/api/v1/print-jobs/terminal-pre-check', { key, body });
const preview = (groupId: string, jobId: string, key = admin()) =>
  call('GET', `/api/v1/printer-groups/${groupId}/jobs/${jobId}/preview`, { key });
const report = (groupId: string, jobId: string, body: unknown, key = admin()) =>
  call('PATCH', `/api/v1/printer-groups/${groupId}/jobs/${jobId}`, { key, body });

describe('printer groups', () => {
  it('creates, reads, lists, updates and deletes a group, with an event for each change', async () => {
    const since = new Date().toISOString();
    const group = await newGroup();
    expect(group).toEqual({
      id: expect.any(String),
      locationId: here,
      name: 'Bar printer',
      width: 42,
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: group.createdAt,
    });
    expect(await ok('GET', `/api/v1/printer-groups/${group.id}`)).toEqual(group);
    const listed = await call('GET', `/api/v1/printer-groups?locationId=${here}&limit=100`, { key: admin() });
    expect(listed.body.data).toContainEqual(group);

    const updated = await ok('PATCH', `/api/v1/printer-groups/${group.id}`, { width: 64, name: 'Bar printer' });
    expect(updated).toEqual({ ...group, width: 64, version: 2, updatedAt: expect.stringMatching(/Z$/) });
    expect(await ok('GET', `/api/v1/printer-groups/${group.id}`)).toEqual(updated);
    // Nothing changes: nothing written.
    expect(await ok('PATCH', `/api/v1/printer-groups/${group.id}`, { width: 64 })).toEqual(updated);

    expect(await ok('DELETE', `/api/v1/printer-groups/${group.id}`)).toEqual(updated);
    expectRefused(await call('GET', `/api/v1/printer-groups/${group.id}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('PATCH', `/api/v1/printer-groups/${group.id}`, { key: admin(), body: { name: 'Gone' } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('DELETE', `/api/v1/printer-groups/${group.id}`, { key: admin() }), 404, 'NOT_FOUND');

    const [created] = await eventsOf('printer-group.created', group.id, since);
    expect(created).toMatchObject({ resource: 'printer-group', data: group, changes: null });
    const updates = await eventsOf('printer-group.updated', group.id, since);
    expect(updates.map((e) => e.changes)).toEqual([{ width: 64 }]);
    expect((await eventsOf('printer-group.deleted', group.id, since))[0]).toMatchObject({ data: updated });
  });

  it('lists by location, counted, paged by cursor', async () => {
    const place = (await newLocation('Printer list bistro')).id;
    const made = [
      await newGroup({ locationId: place, name: 'A' }),
      await newGroup({ locationId: place, name: 'B' }),
      await newGroup({ locationId: place, name: 'C' }),
    ];
    const first = await call('GET', `/api/v1/printer-groups?locationId=${place}&limit=2`, { key: admin() });
    expect(first.body.data.map((g: { id: string }) => g.id)).toEqual([made[0]!.id, made[1]!.id]);
    expect(first.body.meta.pagination).toMatchObject({ total: 3, totalPages: 2, nextCursor: expect.any(String) });
    const rest = await call(
      'GET',
      `/api/v1/printer-groups?locationId=${place}&limit=2&cursor=${first.body.meta.pagination.nextCursor}`,
      { key: admin() },
    );
    expect(rest.body.data.map((g: { id: string }) => g.id)).toEqual([made[2]!.id]);
    const all = await call('GET', '/api/v1/printer-groups?limit=100', { key: admin() });
    expect(all.body.data.map((g: { id: string }) => g.id)).toEqual(expect.arrayContaining(made.map((g) => g.id)));
  });

  it('refuses each field out of bounds, naming it', async () => {
    const refusals: [Record<string, unknown>, string][] = [
      [{ width: 23 }, '/width'],
      [{ width: 65 }, '/width'],
      [{ width: 42.5 }, '/width'],
      [{ name: '' }, '/name'],
      [{ name: '   ' }, '/name'],
      [{ name: 'x'.repeat(101) }, '/name'],
      [{ locationId: 0 }, '/locationId'],
      [{ surprise: 1 }, ''],
    ];
    for (const [extra, path] of refusals) {
      const out = await call('POST', '/api/v1/printer-groups', {
        key: admin(),
        body: { locationId: here, name: 'Bounds', ...extra },
      });
      expectRefused(out, 400, 'VALIDATION_FAILED');
      if (path)
        expect(out.body.error.details.map((d: { path: string }) => d.path).join(' '), JSON.stringify(extra)).toContain(
          path,
        );
    }
    expectRefused(
      await call('POST', '/api/v1/printer-groups', { key: admin(), body: { name: 'No location' } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(await newGroup({ width: 24, name: 'x'.repeat(100) })).toMatchObject({ width: 24 });
    expect(await newGroup({ width: 64 })).toMatchObject({ width: 64 });
    const group = await newGroup();
    expectRefused(
      await call('PATCH', `/api/v1/printer-groups/${group.id}`, { key: admin(), body: {} }),
      400,
      'VALIDATION_FAILED',
    );
    expectRefused(
      await call('PATCH', `/api/v1/printer-groups/${group.id}`, { key: admin(), body: { locationId: there } }),
      400,
      'VALIDATION_FAILED',
    );
    expectRefused(
      await call('PATCH', `/api/v1/printer-groups/${group.id}`, { key: admin(), body: { width: 10 } }),
      400,
      'VALIDATION_FAILED',
      '/width',
    );
    expectRefused(
      await call('GET', '/api/v1/printer-groups/not-a-uuid', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/id',
    );
    expectRefused(await call('GET', `/api/v1/printer-groups/${unknownUuid}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('GET', '/api/v1/printer-groups?limit=101', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/limit',
    );
    expectRefused(
      await call('POST', '/api/v1/printer-groups', {
        key: admin(),
        body: { locationId: 999_999_999, name: 'Nowhere' },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('is not deleted while a terminal names it, nor its location while it has groups or terminals', async () => {
    const place = (await newLocation('Printer delete bistro')).id;
    const group = await newGroup({ locationId: place });
    const terminal = await newTerminal({ locationId: place, printerGroupId: group.id });
    const refused = await call('DELETE', `/api/v1/printer-groups/${group.id}`, { key: admin() });
    expectRefused(refused, 409, 'CONFLICT');
    expect(await ok('GET', `/api/v1/printer-groups/${group.id}`)).toEqual(group);
    const location = await call('DELETE', `/api/v1/locations/${place}`, { key: admin() });
    expectRefused(location, 409, 'CONFLICT');
    expect(location.body.error.message).toContain('printer groups (1)');
    expect(location.body.error.message).toContain('terminals (1)');
    // The terminal lets go of it: then it goes, then the terminal, then the location.
    expect((await putTerminal(terminal.id, { locationId: place, printerGroupId: null })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/printer-groups/${group.id}`, { key: admin() })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/terminals/${terminal.id}`, { key: admin() })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/locations/${place}`, { key: admin() })).status).toBe(200);
  });
});

describe('terminals', () => {
  it('PUT creates, PUT again replaces (or changes nothing), GET and list read, DELETE removes (404 after), with events', async () => {
    const since = new Date().toISOString();
    const id = randomUUID();
    const group = await newGroup();
    const created = await putTerminal(id, { printerGroupId: group.id });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const terminal = created.body.data;
    expect(terminal).toEqual({
      id,
      locationId: here,
      name: 'Bar 1',
      printerGroupId: group.id,
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: terminal.createdAt,
    });
    expect(await ok('GET', `/api/v1/terminals/${id}`)).toEqual(terminal);
    expect(
      (await call('GET', `/api/v1/terminals?locationId=${here}&limit=100`, { key: admin() })).body.data,
    ).toContainEqual(terminal);

    expect((await putTerminal(id, { printerGroupId: group.id })).body.data).toEqual(terminal);
    // A replace sets every field: no printerGroupId is none.
    const replaced = (await putTerminal(id, { name: 'Bar 2' })).body.data;
    expect(replaced).toEqual({
      ...terminal,
      name: 'Bar 2',
      printerGroupId: null,
      version: 2,
      updatedAt: expect.stringMatching(/Z$/),
    });
    const moved = (await putTerminal(id, { name: 'Bar 2', locationId: there })).body.data;
    expect(moved).toMatchObject({ locationId: there, version: 3 });
    expect(
      (await call('GET', `/api/v1/terminals?locationId=${there}&limit=100`, { key: admin() })).body.data.map(
        (t: { id: string }) => t.id,
      ),
    ).toContain(id);
    expect(
      (await call('GET', `/api/v1/terminals?locationId=${here}&limit=100`, { key: admin() })).body.data.map(
        (t: { id: string }) => t.id,
      ),
    ).not.toContain(id);

    expect(await ok('DELETE', `/api/v1/terminals/${id}`)).toEqual(moved);
    expectRefused(await call('GET', `/api/v1/terminals/${id}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await call('DELETE', `/api/v1/terminals/${id}`, { key: admin() }), 404, 'NOT_FOUND');

    expect((await eventsOf('terminal.created', id, since))[0]).toMatchObject({
      resource: 'terminal',
      data: terminal,
      changes: null,
    });
    expect((await eventsOf('terminal.updated', id, since)).map((e) => e.changes)).toEqual(
      expect.arrayContaining([{ name: 'Bar 2', printerGroupId: null }, { locationId: there }]),
    );
    expect(await eventsOf('terminal.updated', id, since)).toHaveLength(2);
    expect((await eventsOf('terminal.deleted', id, since))[0]).toMatchObject({ data: moved });
    // The group no terminal names any more can go.
    expect((await call('DELETE', `/api/v1/printer-groups/${group.id}`, { key: admin() })).status).toBe(200);
  });

  it('refuses bad bodies and ids (400), unknown groups and locations (404), a group of another location (422)', async () => {
    const id = randomUUID();
    for (const [body, path] of [
      [{ locationId: here, name: '' }, '/name'],
      [{ locationId: here, name: 'x'.repeat(101) }, '/name'],
      [{ locationId: here, name: 'T', printerGroupId: 'nope' }, '/printerGroupId'],
      [{ name: 'No location' }, ''],
      [{ locationId: here }, ''],
      [{ locationId: here, name: 'T', extra: true }, ''],
    ] as [Record<string, unknown>, string][]) {
      const out = await call('PUT', `/api/v1/terminals/${id}`, { key: admin(), body });
      expectRefused(out, 400, 'VALIDATION_FAILED');
      if (path) expect(out.body.error.details.map((d: { path: string }) => d.path).join(' ')).toContain(path);
    }
    expectRefused(
      await call('PUT', '/api/v1/terminals/T-1', { key: admin(), body: { locationId: here, name: 'T' } }),
      400,
      'VALIDATION_FAILED',
      '/id',
    );
    expectRefused(await putTerminal(id, { printerGroupId: unknownUuid }), 404, 'NOT_FOUND', '/printerGroupId');
    expectRefused(await putTerminal(id, { locationId: 999_999_999 }), 404, 'NOT_FOUND');
    const elsewhere = await newGroup({ locationId: there });
    expectRefused(await putTerminal(id, { printerGroupId: elsewhere.id }), 422, 'UNPROCESSABLE', '/printerGroupId');
    expectRefused(await call('GET', `/api/v1/terminals/${id}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await call('GET', '/api/v1/terminals?limit=0', { key: admin() }), 400, 'VALIDATION_FAILED', '/limit');
  });
});

describe('the terminal pre-check and its preview', () => {
  it("queues the job for the terminal's group (with its event) and previews it at the group's width, in the location's time", async () => {
    const since = new Date().toISOString();
    const s = await counter(32);
    const out = await preCheck(preCheckBody(s));
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const job = out.body.data;
    expect(job).toEqual({
      id: expect.any(String),
      locationId: here,
      kind: 'terminal_pre_check',
      status: 'queued',
      printerGroupId: s.group.id,
      terminalId: s.terminal.id,
      tabId: s.tab.id,
      content: content(),
      error: null,
      alertId: null,
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: job.createdAt,
    });
    expect((await eventsOf('print-job.created', job.id, since))[0]).toMatchObject({ resource: 'print-job', data: job });

    const shown = await preview(s.group.id, job.id);
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Stockholm',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(job.createdAt));
    // The renderer's receipt (its layout is unit-tested) of the job's content, with the location's
    // name, the table, the job's time on the location's wall clock and the terminal's name.
    const lines = renderReceipt({
      width: 32,
      locationName: 'Printing bistro',
      tableName: 'T4',
      printedAt: local,
      terminalName: 'Bar 1',
      lines: content().lineItems,
      totalAmount: 25400,
    });
    expect(shown.body.data).toEqual({ jobId: job.id, printerGroupId: s.group.id, width: 32, lines });
    expect(lines.slice(0, 4)).toEqual(['        Printing bistro', 'Table T4', `Time ${local}`, 'Terminal Bar 1']);
    expect(lines).toContain('TOTAL                     254.00');
    // The group's width is read when the job is previewed.
    await ok('PATCH', `/api/v1/printer-groups/${s.group.id}`, { width: 24 });
    const narrow = (await preview(s.group.id, job.id)).body.data;
    expect(narrow.width).toBe(24);
    expect(narrow.lines.every((l: string) => [...l].length <= 24)).toBe(true);
    expect(narrow.lines).toContain('Toast Skagen      145.00');
  });

  it('requires every field of the pre-check body and bounds each (400 naming it)', async () => {
    const s = await counter();
    const line = { name: 'Soup', price: 900, modifications: [] };
    const withContent = (c: Record<string, unknown>) => preCheckBody(s, { content: c });
    const refusals: [unknown, string][] = [
      [{ ...preCheckBody(s), locationId: undefined }, ''],
      [{ ...preCheckBody(s), tabId: undefined }, ''],
      [{ ...preCheckBody(s), terminalId: undefined }, ''],
      [{ ...preCheckBody(s), content: undefined }, ''],
      [withContent({ totalAmount: 900, lineItems: [line] }), '/content'],
      [withContent({ tableName: 'T1', lineItems: [line] }), '/content'],
      [withContent({ tableName: 'T1', totalAmount: 900 }), '/content'],
      [withContent(content({ lineItems: [{ price: 900, modifications: [] }] })), '/content/lineItems/0'],
      [withContent(content({ lineItems: [{ name: 'Soup', modifications: [] }] })), '/content/lineItems/0'],
      [withContent(content({ lineItems: [{ name: 'Soup', price: 900 }] })), '/content/lineItems/0'],
      [
        withContent(content({ lineItems: [{ ...line, modifications: [{ name: 'Bread' }] }] })),
        '/content/lineItems/0/modifications/0',
      ],
      [withContent(content({ lineItems: [{ ...line, price: -1 }] })), '/content/lineItems/0/price'],
      [withContent(content({ lineItems: [{ ...line, price: 9.5 }] })), '/content/lineItems/0/price'],
      [withContent(content({ lineItems: [{ ...line, vatRate: 101 }] })), '/content/lineItems/0/vatRate'],
      [withContent(content({ lineItems: Array(201).fill(line) })), '/content/lineItems'],
      [
        withContent(content({ lineItems: [{ ...line, modifications: Array(21).fill({ name: 'x', price: 0 }) }] })),
        '/content/lineItems/0/modifications',
      ],
      [withContent(content({ totalAmount: 12.5 })), '/content/totalAmount'],
      [withContent(content({ totalAmount: -1 })), '/content/totalAmount'],
      [withContent(content({ tableName: '' })), '/content/tableName'],
      [preCheckBody(s, { tabId: 'tab-1' }), '/tabId'],
      [preCheckBody(s, { terminalId: 42 }), '/terminalId'],
      [preCheckBody(s, { locationId: 'here' }), '/locationId'],
      [preCheckBody(s, { extra: 1 }), ''],
    ];
    for (const [body, path] of refusals) {
      const out = await preCheck(body);
      expectRefused(out, 400, 'VALIDATION_FAILED');
      if (path)
        expect(
          out.body.error.details.map((d: { path: string }) => d.path).join(' '),
          JSON.stringify(body).slice(0, 200),
        ).toContain(path);
    }
    // Edges are accepted: no lines at all and a total of zero (a tab with nothing ordered), 200 lines of 20 modifications.
    const empty = { ...s, tab: await tabWithoutBooking(own().companyId, here) };
    expect((await preCheck(preCheckBody(empty, { content: content({ lineItems: [], totalAmount: 0 }) }))).status).toBe(
      200,
    );
    const full = await preCheck(
      preCheckBody(s, {
        content: content({
          lineItems: Array(200).fill({ ...line, modifications: Array(20).fill({ name: 'x', price: -100 }) }),
        }),
      }),
    );
    expect(full.status, JSON.stringify(full.body).slice(0, 300)).toBe(200);
    const shown = (await preview(s.group.id, full.body.data.id)).body.data;
    expect(shown.lines).toHaveLength(4 + 1 + 200 * 21 + 2);
  });

  it("refuses a total that is not the tab's bill (409 naming both and what is due), queueing nothing; the bill's total is accepted", async () => {
    const since = new Date().toISOString();
    const s = await counter();
    const jobsOf = async () =>
      (
        await call('GET', `/api/v1/events?type=print-job.created&since=${since}&limit=100`, { key: admin() })
      ).body.data.filter((e: { data: { tabId: string } }) => e.data.tabId === s.tab.id);

    // "TOTAL 0.01" for a bill of 254.00.
    const cheap = await preCheck(preCheckBody(s, { content: content({ totalAmount: 1 }) }));
    expectRefused(cheap, 409, 'CONFLICT', '/content/totalAmount');
    expect(cheap.body.error.message).toContain('0.01 (1)');
    expect(cheap.body.error.message).toContain('254.00 (25400)');
    expect(cheap.body.error.details).toEqual([
      { path: '/content/totalAmount', message: "is 1; the tab's bill is 25400 (25400 due)" },
    ]);
    // One minor unit over is refused too.
    expectRefused(await preCheck(preCheckBody(s, { content: content({ totalAmount: 25401 }) })), 409, 'CONFLICT');
    expect(await jobsOf()).toEqual([]);

    // The pre-check is the bill: after a partial payment its total is still the bill's, not what is due.
    const paid = await call('POST', `/api/v1/tabs/${s.tab.id}/purchases`, {
      key: admin(),
      body: { amount: 5400, paymentProvider: 'card' },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const due = await preCheck(preCheckBody(s, { content: content({ totalAmount: 20000 }) }));
    expectRefused(due, 409, 'CONFLICT', '/content/totalAmount');
    expect(due.body.error.details[0].message).toBe("is 20000; the tab's bill is 25400 (20000 due)");
    expect(await jobsOf()).toEqual([]);

    const matching = await preCheck(preCheckBody(s));
    expect(matching.status, JSON.stringify(matching.body)).toBe(200);
    expect(matching.body.data).toMatchObject({ tabId: s.tab.id, content: { totalAmount: 25400 }, status: 'queued' });
    expect((await jobsOf()).map((e: { data: { id: string } }) => e.data.id)).toEqual([matching.body.data.id]);
  });

  it('refuses content carrying printer commands (control characters), naming each text; nothing queued', async () => {
    const since = new Date().toISOString();
    const s = await counter();
    const kick = '\x1b\x70\x00\x19\xfa'; // ESC p: open the cash drawer
    const out = await preCheck(
      preCheckBody(s, {
        content: content({
          tableName: `T4${kick}`,
          lineItems: [
            { name: `Toast${kick}`, price: 14500, modifications: [{ name: 'roe\x1d\x56\x00', price: 0 }] },
            { name: 'Lager', price: 7900, modifications: [{ name: 'cold\r\nTOTAL 0.00', price: 0 }] },
          ],
        }),
      }),
    );
    expectRefused(out, 400, 'VALIDATION_FAILED');
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      '/content/tableName',
      '/content/lineItems/0/name',
      '/content/lineItems/0/modifications/0/name',
      '/content/lineItems/1/modifications/0/name',
    ]);
    const created = await call('GET', `/api/v1/events?type=print-job.created&since=${since}&limit=100`, {
      key: admin(),
    });
    expect(
      created.body.data.filter((e: { data: { terminalId: string } }) => e.data.terminalId === s.terminal.id),
    ).toEqual([]);
  });

  it('previews a job with the names of its location and terminal stripped of control characters', async () => {
    const s = await counter(24);
    const kick = '\x1b\x70\x00\x19\xfa';
    // The API refuses the name now (docs/api.md, "Text"); one stored before must still print safely.
    expectRefused(
      await putTerminal(s.terminal.id, { printerGroupId: s.group.id, name: `Bar${kick}1` }),
      400,
      'VALIDATION_FAILED',
      '/name',
    );
    await storedTerminalName(own().companyId, s.terminal.id, `Bar${kick}1`);
    const job = (await preCheck(preCheckBody(s))).body.data;
    const shown = (await preview(s.group.id, job.id)).body.data;
    expect(shown.lines).toContain('Terminal Bar p ú1');
    for (const line of shown.lines as string[]) {
      expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect([...line].length).toBeLessThanOrEqual(24);
    }
  });

  it('answers 404 for a missing terminal or tab, 422 for one of another location or a terminal without a group; nothing queued', async () => {
    const s = await counter();
    expectRefused(await preCheck(preCheckBody(s, { terminalId: unknownUuid })), 404, 'NOT_FOUND', '/terminalId');
    expectRefused(await preCheck(preCheckBody(s, { tabId: unknownUuid })), 404, 'NOT_FOUND', '/tabId');
    const farTab = await tabWithoutBooking(own().companyId, there);
    expectRefused(await preCheck(preCheckBody(s, { tabId: farTab.id })), 422, 'UNPROCESSABLE', '/tabId');
    const farGroup = await newGroup({ locationId: there });
    const farTerminal = await newTerminal({ locationId: there, printerGroupId: farGroup.id });
    expectRefused(
      await preCheck(preCheckBody({ terminal: farTerminal, tab: s.tab })),
      422,
      'UNPROCESSABLE',
      '/terminalId',
    );
    const idle = await newTerminal({ name: 'No printer' });
    expectRefused(await preCheck(preCheckBody({ terminal: idle, tab: s.tab })), 422, 'UNPROCESSABLE', '/terminalId');
    expectRefused(await preCheck(preCheckBody(s, { locationId: 999_999_999 })), 422, 'UNPROCESSABLE');
  });

  it('previews only a job of the group named (404 otherwise)', async () => {
    const s = await counter();
    const job = (await preCheck(preCheckBody(s))).body.data;
    const other = await newGroup();
    expectRefused(await preview(other.id, job.id), 404, 'NOT_FOUND');
    expectRefused(await preview(s.group.id, unknownUuid), 404, 'NOT_FOUND');
    expectRefused(await preview(unknownUuid, job.id), 404, 'NOT_FOUND');
    expectRefused(await preview('pg', job.id), 400, 'VALIDATION_FAILED', '/printerGroupId');
    expectRefused(await preview(s.group.id, 'job'), 400, 'VALIDATION_FAILED', '/jobId');
  });
});

describe("the printer agent's report", () => {
  it('marks a job printed (again: unchanged); a printed job cannot fail (409)', async () => {
    const since = new Date().toISOString();
    const s = await counter();
    const job = (await preCheck(preCheckBody(s))).body.data;
    const printed = await report(s.group.id, job.id, { status: 'printed' });
    expect(printed.status, JSON.stringify(printed.body)).toBe(200);
    expect(printed.body.data).toEqual({
      ...job,
      status: 'printed',
      version: 2,
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect((await report(s.group.id, job.id, { status: 'printed' })).body.data).toEqual(printed.body.data);
    expectRefused(await report(s.group.id, job.id, { status: 'failed', error: 'late' }), 409, 'CONFLICT');
    expect((await eventsOf('print-job.updated', job.id, since)).map((e) => e.changes)).toEqual([
      { status: 'printed', error: null },
    ]);
  });

  it('a failed job raises an alert at its location, in the same change', async () => {
    const since = new Date().toISOString();
    const s = await counter();
    const job = (await preCheck(preCheckBody(s))).body.data;
    const failed = await report(s.group.id, job.id, { status: 'failed', error: 'Out of paper' });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body.data).toMatchObject({
      status: 'failed',
      error: 'Out of paper',
      alertId: expect.any(String),
      version: 2,
    });
    const alerts = await call('GET', `/api/v1/alerts?locationId=${here}&alertType=print_job.failed&limit=100`, {
      key: admin(),
    });
    const alert = alerts.body.data.alerts.find((a: { id: string }) => a.id === failed.body.data.alertId);
    expect(alert).toMatchObject({
      locationId: here,
      alertType: 'print_job.failed',
      severity: 'error',
      latestStatus: 'active',
      message: 'Out of paper',
      details: {
        jobId: job.id,
        printerGroupId: s.group.id,
        printerGroupName: 'Pass printer',
        terminalId: s.terminal.id,
        tabId: s.tab.id,
        tableName: 'T4',
      },
    });
    // The agent's retry of the same report raises no second alert.
    expect((await report(s.group.id, job.id, { status: 'failed', error: 'Out of paper' })).body.data).toEqual(
      failed.body.data,
    );
    const again = await call('GET', `/api/v1/alerts?locationId=${here}&alertType=print_job.failed&limit=100`, {
      key: admin(),
    });
    expect(
      again.body.data.alerts.filter((a: { details: { jobId: string } }) => a.details.jobId === job.id),
    ).toHaveLength(1);
    expectRefused(await report(s.group.id, job.id, { status: 'printed' }), 409, 'CONFLICT');
    expect((await eventsOf('print-job.updated', job.id, since))[0]).toMatchObject({
      changes: { status: 'failed', error: 'Out of paper' },
    });
    // A failure without a word from the printer says so.
    const quiet = (await preCheck(preCheckBody(s))).body.data;
    expect((await report(s.group.id, quiet.id, { status: 'failed' })).body.data.error).toBe(
      'the printer reported a failure',
    );
  });

  it('refuses a bad report (400) and a job of another group (404)', async () => {
    const s = await counter();
    const job = (await preCheck(preCheckBody(s))).body.data;
    for (const body of [
      {},
      { status: 'queued' },
      { status: 'failed', error: '' },
      { status: 'failed', error: 'x'.repeat(501) },
      { status: 'printed', extra: 1 },
    ]) {
      expectRefused(await report(s.group.id, job.id, body), 400, 'VALIDATION_FAILED');
    }
    expectRefused(await report((await newGroup()).id, job.id, { status: 'printed' }), 404, 'NOT_FOUND');
    expect((await preview(s.group.id, job.id)).status).toBe(200);
  });
});

describe('printing: permissions, locations and the tenant wall', () => {
  it('each operation needs its permission (403, nothing written)', async () => {
    const s = await counter();
    const job = (await preCheck(preCheckBody(s))).body.data;
    const groupsRead = await keyWith(['printer_groups.read']);
    expect((await call('GET', `/api/v1/printer-groups/${s.group.id}`, { key: groupsRead })).status).toBe(200);
    expectRefused(
      await call('POST', '/api/v1/printer-groups', { key: groupsRead, body: { locationId: here, name: 'No' } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await call('PATCH', `/api/v1/printer-groups/${s.group.id}`, { key: groupsRead, body: { name: 'No' } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('DELETE', `/api/v1/printer-groups/${s.group.id}`, { key: groupsRead }), 403, 'FORBIDDEN');
    expectRefused(
      await call('GET', '/api/v1/printer-groups', { key: await keyWith(['terminals.read']) }),
      403,
      'FORBIDDEN',
    );

    const terminalsRead = await keyWith(['terminals.read']);
    expect((await call('GET', `/api/v1/terminals/${s.terminal.id}`, { key: terminalsRead })).status).toBe(200);
    expect((await call('GET', `/api/v1/terminals?locationId=${here}`, { key: terminalsRead })).status).toBe(200);
    expectRefused(await putTerminal(s.terminal.id, { name: 'No' }, terminalsRead), 403, 'FORBIDDEN');
    const updater = await keyWith(['terminals.update']);
    expectRefused(await call('DELETE', `/api/v1/terminals/${s.terminal.id}`, { key: updater }), 403, 'FORBIDDEN');
    expectRefused(await call('GET', `/api/v1/terminals/${s.terminal.id}`, { key: updater }), 403, 'FORBIDDEN');
    expect((await putTerminal(s.terminal.id, { name: 'Bar 1', printerGroupId: s.group.id }, updater)).status).toBe(200);

    const jobsRead = await keyWith(['print_jobs.read']);
    expect((await preview(s.group.id, job.id, jobsRead)).status).toBe(200);
    expectRefused(await preCheck(preCheckBody(s), jobsRead), 403, 'FORBIDDEN');
    expectRefused(await report(s.group.id, job.id, { status: 'printed' }, jobsRead), 403, 'FORBIDDEN');
    const jobsCreate = await keyWith(['print_jobs.create']);
    expectRefused(await preview(s.group.id, job.id, jobsCreate), 403, 'FORBIDDEN');
    expect((await preCheck(preCheckBody(s), jobsCreate)).status).toBe(200);

    expect(await ok('GET', `/api/v1/printer-groups/${s.group.id}`)).toEqual(s.group);
    expect(await ok('GET', `/api/v1/terminals/${s.terminal.id}`)).toEqual(s.terminal);
    expect((await preview(s.group.id, job.id)).status).toBe(200);
  });

  it("a key limited to a location reaches only that location's groups, terminals and jobs", async () => {
    const s = await counter();
    const job = (await preCheck(preCheckBody(s))).body.data;
    const farGroup = await newGroup({ locationId: there });
    const farTerminal = await newTerminal({ locationId: there, printerGroupId: farGroup.id });
    const farJob = (
      await preCheck({
        locationId: there,
        tabId: (await tabWithoutBooking(own().companyId, there)).id,
        terminalId: farTerminal.id,
        content: nothingOrdered,
      })
    ).body.data;
    const key = await keyWith(
      [
        'printer_groups.read',
        'printer_groups.manage',
        'terminals.read',
        'terminals.update',
        'terminals.delete',
        'print_jobs.read',
        'print_jobs.create',
      ],
      [here],
    );

    expect((await call('GET', `/api/v1/printer-groups/${s.group.id}`, { key })).status).toBe(200);
    expectRefused(await call('GET', `/api/v1/printer-groups/${farGroup.id}`, { key }), 403, 'FORBIDDEN');
    expectRefused(
      await call('POST', '/api/v1/printer-groups', { key, body: { locationId: there, name: 'No' } }),
      403,
      'FORBIDDEN',
    );
    const groups = await call('GET', '/api/v1/printer-groups?limit=100', { key });
    expect(new Set(groups.body.data.map((g: { locationId: number }) => g.locationId))).toEqual(new Set([here]));

    expectRefused(await call('GET', `/api/v1/terminals/${farTerminal.id}`, { key }), 403, 'FORBIDDEN');
    expectRefused(await putTerminal(farTerminal.id, { locationId: here }, key), 403, 'FORBIDDEN');
    expectRefused(await putTerminal(s.terminal.id, { locationId: there }, key), 403, 'FORBIDDEN');
    expectRefused(await call('DELETE', `/api/v1/terminals/${farTerminal.id}`, { key }), 403, 'FORBIDDEN');
    const listed = await call('GET', '/api/v1/terminals?limit=100', { key });
    expect(new Set(listed.body.data.map((t: { locationId: number }) => t.locationId))).toEqual(new Set([here]));

    expect((await preview(s.group.id, job.id, key)).status).toBe(200);
    expectRefused(await preview(farGroup.id, farJob.id, key), 403, 'FORBIDDEN');
    expectRefused(await report(farGroup.id, farJob.id, { status: 'printed' }, key), 403, 'FORBIDDEN');
    expectRefused(
      await preCheck({ locationId: there, tabId: farJob.tabId, terminalId: farTerminal.id, content: content() }, key),
      403,
      'FORBIDDEN',
    );
    expect(await ok('GET', `/api/v1/terminals/${farTerminal.id}`)).toEqual(farTerminal);
  });

  it("hides another company's groups, terminals and jobs (404); the same terminal id is each company's own", async () => {
    const theirGroup = await ok(
      'POST',
      '/api/v1/printer-groups',
      { locationId: theirLocation(), name: 'Theirs' },
      theirAdmin(),
    );
    const theirTerminalId = randomUUID();
    const theirTerminal = (
      await putTerminal(theirTerminalId, { locationId: theirLocation(), printerGroupId: theirGroup.id }, theirAdmin())
    ).body.data;
    const theirTab = await tabWithoutBooking(2, theirLocation());
    const theirJob = (
      await preCheck(
        { locationId: theirLocation(), tabId: theirTab.id, terminalId: theirTerminalId, content: nothingOrdered },
        theirAdmin(),
      )
    ).body.data;

    expectRefused(await call('GET', `/api/v1/printer-groups/${theirGroup.id}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('PATCH', `/api/v1/printer-groups/${theirGroup.id}`, { key: admin(), body: { name: 'Mine' } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('DELETE', `/api/v1/printer-groups/${theirGroup.id}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await call('GET', `/api/v1/terminals/${theirTerminalId}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await call('DELETE', `/api/v1/terminals/${theirTerminalId}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await preview(theirGroup.id, theirJob.id), 404, 'NOT_FOUND');
    expectRefused(await report(theirGroup.id, theirJob.id, { status: 'failed' }), 404, 'NOT_FOUND');
    expectRefused(
      await putTerminal(randomUUID(), { printerGroupId: theirGroup.id }),
      404,
      'NOT_FOUND',
      '/printerGroupId',
    );
    expectRefused(
      await call('POST', '/api/v1/printer-groups', {
        key: admin(),
        body: { locationId: theirLocation(), name: 'Theirs' },
      }),
      404,
      'NOT_FOUND',
    );
    const s = await counter();
    expectRefused(await preCheck(preCheckBody(s, { tabId: theirTab.id })), 404, 'NOT_FOUND', '/tabId');
    // A PUT of their terminal's id makes a terminal of ours; theirs is untouched.
    const mine = (await putTerminal(theirTerminalId, { name: 'Ours' })).body.data;
    expect(mine).toMatchObject({ id: theirTerminalId, locationId: here, name: 'Ours', version: 1 });
    expect(await ok('GET', `/api/v1/terminals/${theirTerminalId}`, undefined, theirAdmin())).toEqual(theirTerminal);
    expect(
      (await call('GET', `/api/v1/printer-groups?limit=100`, { key: admin() })).body.data.map(
        (g: { id: string }) => g.id,
      ),
    ).not.toContain(theirGroup.id);
  });
});
