/**
 * A world for one company: a fresh company (test/support/stage-data.ts `freshCompany`) with one real
 * resource of every kind a path or a body of the route table names, and the request of any route
 * built against it (`requestFor`). The sweeps (test/api/sweeps.test.ts) read it; so may any test
 * that needs "a request of every route that reaches something real".
 *
 * The request of a route is derived from its row, never written per route: each path parameter is
 * the id of the resource its path segment names (`/bookings/{id}` → the booking, `/members/{memberId}`
 * → the member; `segmentResource`), query parameters are filled by name (`queryValues`; a required
 * one without a value makes the route unbuildable, so the caller can fail naming it), and the body is
 * the body schema's first example with every id, date and URL field replaced by the world's
 * (`bodyValues`). A route the world cannot serve lists what it lacks in `missing`.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { DateTime } from 'luxon';
import { expect } from 'vitest';
import type { Route } from '../../shared/routes';
import { call, devKeys, settledDelivery, type Answer, type UntypedJson } from './http';
import { freshCompany, stageAlert, tabWithoutBooking, type OwnCompany } from './stage-data';

/** The world's resources, in the order they are made (later ones may hang off earlier ones). */
export interface WorldIds {
  /** The world's company: what the platform operator's paths name (`/companies/{companyId}`). */
  company: number;
  location: number;
  /** A second location of the company: where the location-limited key of the sweeps may act. */
  otherLocation: number;
  guest: number;
  table: string;
  otherTable: string;
  item: number;
  otherItem: number;
  coursing: string;
  printerGroup: string;
  capacitySetting: string;
  schedule: string;
  rule: string;
  role: number;
  apiKey: string;
  webhook: string;
  alert: string;
  tab: string;
  bookingGroup: string;
  booking: string;
  /** The booking's confirmation code: what a guest's by-code paths name it by. */
  bookingCode: string;
  variantGroup: number;
  variant: number;
  customTag: number;
  terminal: string;
  waitlistEntry: string;
  /** The waitlist entry's code: what a guest's by-code paths name it by. */
  waitlistCode: string;
  order: string;
  dispatch: string;
  member: string;
  purchase: string;
  printJob: string;
  delivery: string;
}
export type Resource = keyof WorldIds;

/** The order `buildWorld` makes the resources in: a resource may belong to one made before it, never after. */
export const creationOrder: readonly Resource[] = [
  'company',
  'location',
  'otherLocation',
  'guest',
  'table',
  'otherTable',
  'item',
  'otherItem',
  'coursing',
  'printerGroup',
  'capacitySetting',
  'role',
  'apiKey',
  'webhook',
  'schedule',
  'rule',
  'alert',
  'tab',
  'bookingGroup',
  'booking',
  'bookingCode',
  'variantGroup',
  'variant',
  'customTag',
  'terminal',
  'waitlistEntry',
  'waitlistCode',
  'order',
  'dispatch',
  'member',
  'purchase',
  'printJob',
  'delivery',
];

export interface World {
  company: OwnCompany;
  ids: WorldIds;
  timezone: string;
  /** The location's today + 7 days (its local date): every date a request names. */
  day: string;
  /** Where the world's webhook subscription sends (a receiver the caller runs). */
  receiverUrl: string;
}

/**
 * Path segment → the resource a parameter right after it names. `{locationId}` after `locations`,
 * `{id}` after `bookings`, `{memberId}` after `members`: the segment says what, whatever the
 * parameter is called. Where the segment says only how (`by-code`), the two segments before the
 * parameter say what: `bookings/by-code/{code}` names the booking by its code. The one place that
 * knows which id a path names: the sweeps and the fuzz both read it (through `requestFor`).
 */
const segmentResource: Record<string, Resource> = {
  companies: 'company',
  locations: 'location',
  tables: 'table',
  'booking-groups': 'bookingGroup',
  bookings: 'booking',
  members: 'member',
  tabs: 'tab',
  orders: 'order',
  dispatches: 'dispatch',
  purchases: 'purchase',
  reviews: 'purchase',
  items: 'item',
  'variant-groups': 'variantGroup',
  variants: 'variant',
  coursings: 'coursing',
  schedules: 'schedule',
  'schedule-rules': 'rule',
  subscriptions: 'webhook',
  deliveries: 'delivery',
  'api-keys': 'apiKey',
  roles: 'role',
  'capacity-settings': 'capacitySetting',
  'booking-waitlist': 'waitlistEntry',
  'printer-groups': 'printerGroup',
  jobs: 'printJob',
  terminals: 'terminal',
  alerts: 'alert',
  'bookings/by-code': 'bookingCode',
  'booking-waitlist/by-code': 'waitlistCode',
};

/** The resource the parameter at `segments[i]` names, by the segments before it (`segmentResource`). */
const resourceAt = (segments: string[], i: number): Resource | undefined =>
  segmentResource[segments.slice(Math.max(i - 2, 0), i).join('/')] ?? segmentResource[segments[i - 1] ?? ''];

/**
 * Resources of the company as a whole, not of one of its locations: a key limited to some locations
 * still reaches them (docs/access.md: key records are read company-wide; roles, webhooks and guests
 * have no location). Every other resource lives at a location.
 */
export const companyWide: ReadonlySet<Resource> = new Set<Resource>([
  'company',
  'guest',
  'role',
  'apiKey',
  'webhook',
  'delivery',
]);

const plusMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/**
 * Body fields (at any depth) whose example value is replaced by the world's: ids (with the resource
 * they name), dates, instants, URLs.
 */
function bodyValues(world: World): Record<string, { value: (example: unknown) => unknown; names?: Resource }> {
  const { ids } = world;
  const one = (names: Resource) => ({ value: () => ids[names], names });
  const list = (names: Resource) => ({
    value: (example: unknown) => (Array.isArray(example) ? [ids[names]] : example),
    names,
  });
  const is = (value: () => unknown) => ({ value });
  return {
    locationId: one('location'),
    locationIds: list('location'),
    tableId: one('table'),
    tableIds: list('table'),
    combinableWith: list('otherTable'),
    itemId: one('item'),
    coursingId: one('coursing'),
    customTagId: one('customTag'),
    printerGroupId: one('printerGroup'),
    terminalId: one('terminal'),
    tabId: one('tab'),
    bookingId: one('booking'),
    purchaseIntentId: one('purchase'),
    roleId: one('role'),
    userId: one('guest'),
    guestId: one('guest'),
    primaryUserId: one('guest'),
    bookingDate: is(() => world.day),
    desiredDate: is(() => world.day),
    startDate: is(() => world.day),
    endDate: is(() => world.day),
    endsAt: is(() => plusMinutes(60)),
    validFrom: is(() => plusMinutes(0)),
    validTo: is(() => plusMinutes(60 * 24 * 30)),
    url: is(() => world.receiverUrl),
  };
}

/** Query parameters by name: those a route requires, and `locationId` wherever a route takes one (so every list is of the world's location). */
function queryValues(world: World): Record<string, string> {
  return {
    locationId: String(world.ids.location),
    date: world.day,
    startDate: world.day,
    endDate: world.day,
    partySize: '2',
    // the world's schedule (createSchedule's example): what schedule availability asks about
    entityType: 'menu_layout',
    entityId: 'brunch',
    q: 'Ada',
    query: 'Glu',
  };
}

export interface WorldRequest {
  operationId: string;
  method: string;
  /** The path with the world's ids in it, and the query string. */
  url: string;
  /** The path parameters the world has a value for, by name (not encoded). */
  params: Record<string, string>;
  /** The query parameters sent, by name. */
  query: Record<string, string>;
  body?: unknown;
  headers: Record<string, string>;
  /** The world's resources the request names (path and body), the location counted when named anywhere. */
  names: Resource[];
  /** What the request could not be built with: a path parameter or required query parameter the world has no value for. */
  missing: string[];
}

const handlerSource = new Map<string, string>();
/** Whether the route's handler reads the X-Location-Id header (the location a request acts on when it names none). */
function readsLocationHeader(route: Route): boolean {
  if (!handlerSource.has(route.handler))
    handlerSource.set(route.handler, readFileSync(new URL(`../../${route.handler}`, import.meta.url), 'utf8'));
  const source = handlerSource.get(route.handler)!;
  return source.includes("'x-location-id'") || source.includes('req.headers)');
}

function replaceIds(value: unknown, fill: ReturnType<typeof bodyValues>, named: Set<Resource>): unknown {
  if (Array.isArray(value)) return value.map((v) => replaceIds(v, fill, named));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const field = fill[k];
      if (!field) return [k, replaceIds(v, fill, named)];
      const replaced = field.value(v);
      if (field.names && replaced !== null) named.add(field.names);
      return [k, replaced];
    }),
  );
}

/** The request of `route` against the world (see the module's comment). */
export function requestFor(route: Route, world: World): WorldRequest {
  const missing: string[] = [];
  const named = new Set<Resource>();
  const params: Record<string, string> = {};
  const segments = route.path.split('/');
  const path = segments
    .map((segment, i) => {
      const param = /^\{(.+)\}$/.exec(segment)?.[1];
      if (!param) return segment;
      const resource = resourceAt(segments, i);
      if (!resource) {
        missing.push(`path parameter ${param}`);
        return segment;
      }
      named.add(resource);
      params[param] = String(world.ids[resource]);
      return encodeURIComponent(params[param]);
    })
    .join('/');
  const query = new URLSearchParams();
  const schema = route.schemas.query as
    | { properties?: Record<string, { default?: unknown }>; required?: string[] }
    | undefined;
  const values = queryValues(world);
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    const required = (schema?.required ?? []).includes(name) && property.default === undefined;
    if (name === 'locationId' || (required && values[name] !== undefined)) {
      query.set(name, values[name]!);
      if (name === 'locationId') named.add('location');
    } else if (required) missing.push(`query parameter ${name}`);
  }
  const headers: Record<string, string> = {};
  if (readsLocationHeader(route)) {
    headers['X-Location-Id'] = String(world.ids.location);
    named.add('location');
  }
  const example = (route.schemas.body as { examples?: unknown[] } | undefined)?.examples?.[0];
  const body = route.schemas.body ? replaceIds(example ?? {}, bodyValues(world), named) : undefined;
  if (route.schemas.body && example === undefined) missing.push('a body example');
  const search = query.toString();
  return {
    operationId: route.operationId,
    method: route.method,
    url: `${path}${search ? `?${search}` : ''}`,
    params,
    query: Object.fromEntries(query),
    body,
    headers,
    names: [...named],
    missing,
  };
}

/**
 * Sends a built request with a credential and answers what came back: the body parsed when it is
 * JSON, else its text (a file answer). The stage checks every answer against the OpenAPI
 * description itself (test/support/answer-log.ts), so a sweep records what it got instead of
 * stopping at the first answer the description lacks.
 */
export async function send(request: WorldRequest, credential: { key: string } | { token: string }): Promise<Answer> {
  const headers: Record<string, string> = {
    ...request.headers,
    ...('key' in credential ? { 'X-API-Key': credential.key } : { Authorization: `Bearer ${credential.token}` }),
  };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${devKeys().baseUrl}${request.url}`, {
    method: request.method,
    headers,
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body };
}

/**
 * A webhook receiver on a free loopback port that answers 200 to everything: the `receiverUrl` of
 * `buildWorld`, where the world's subscription sends. `close` ends it with its connections.
 */
export async function startReceiver(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** POST/PUT/PATCH with the admin key; expects 200 and answers `data`. */
async function made(world: Pick<World, 'company'>, method: string, path: string, body: unknown): Promise<UntypedJson> {
  const out = await call(method, path, { key: world.company.keys.admin, body });
  expect(out.status, `${method} ${path}: ${JSON.stringify(out.body)}`).toBe(200);
  return out.body.data;
}

/** Every day of the week open from 11:00 to 23:00. */
const everyDay = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    [{ open: '11:00', close: '23:00' }],
  ]),
);

/** An example body of a route of the table, with the world's ids in it (the same rule as `requestFor`). */
function exampleBody(operationId: string, all: readonly Route[], world: World): unknown {
  return requestFor(all.find((r) => r.operationId === operationId)!, world).body;
}

/** The price of the world's inventory item; the world's tab has one order of one. */
const ITEM_PRICE = 10000;

/** The pre-check's example body, its total the world tab's bill (a pre-check's total must be its tab's bill). */
function preCheckOfWorldTab(all: readonly Route[], world: World): unknown {
  const body = exampleBody('terminalPreCheck', all, world) as { content: Record<string, unknown> };
  return { ...body, content: { ...body.content, totalAmount: ITEM_PRICE } };
}

/**
 * Builds the world over the API with the company's admin key (and, for an open tab and an alert,
 * which no operation makes on its own, straight into the stage's table). `receiverUrl`: where the
 * world's webhook subscription sends; it subscribes to `company.created` only, which nothing of the
 * company fires, so the only delivery is the one its test sends, awaited here: nothing of the world
 * is still being written when this answers.
 */
export async function buildWorld(name: string, receiverUrl: string, all: readonly Route[]): Promise<World> {
  const company = await freshCompany(name);
  const timezone = 'Europe/Stockholm';
  const day = DateTime.now().setZone(timezone).plus({ days: 7 }).toISODate()!;
  const ids = { company: company.companyId } as WorldIds;
  const world: World = { company, ids, timezone, day, receiverUrl };
  const a = (method: string, path: string, body?: unknown) => made(world, method, path, body);

  [ids.location, ids.otherLocation, ids.guest] = await Promise.all([
    a('POST', '/api/v1/locations', { name: `${name} (main)`, timezone, operatingHours: everyDay }).then((l) => l.id),
    a('POST', '/api/v1/locations', { name: `${name} (other)`, timezone, operatingHours: everyDay }).then((l) => l.id),
    a('POST', '/api/v1/users/guests', { name: 'Ada Lovelace', email: `ada-${randomUUID()}@example.com` }).then(
      (g) => g.id,
    ),
  ]);
  const at = ids.location;
  const item = (n: string) =>
    a('POST', '/api/v1/items', {
      locationId: at,
      name: n,
      price: ITEM_PRICE,
      vatRate: 12,
      categoryHandle: 'mains',
    }).then((i) => i.id);
  const table = (n: string) =>
    a('POST', `/api/v1/locations/${at}/tables`, { name: n, minCapacity: 1, maxCapacity: 6 }).then((t) => t.id);
  let schedule: { id: string; rules: { id: string }[] };
  [
    ids.table,
    ids.otherTable,
    ids.item,
    ids.otherItem,
    ids.coursing,
    ids.printerGroup,
    ids.capacitySetting,
    ids.role,
    ids.apiKey,
    ids.webhook,
    schedule,
    ids.alert,
    ids.tab,
  ] = await Promise.all([
    table('W1'),
    table('W2'),
    item('World steak'),
    item('World fries'),
    a('POST', '/api/v1/coursings', { locationId: at, title: 'Mains', order: 1 }).then((c) => c.id),
    a('POST', '/api/v1/printer-groups', { locationId: at, name: 'Kitchen printers' }).then((g) => g.id),
    a('POST', `/api/v1/locations/${at}/capacity-settings`, {
      name: 'World rush',
      validOnDays: [1, 2, 3, 4, 5, 6, 7],
      orderCapacity: 1000,
      timeStart: '00:00:00',
      timeEnd: '23:59:59',
    }).then((s) => s.id),
    a('POST', '/api/v1/roles', { name: 'World role', permissionIds: [1] }).then((r) => r.id),
    a('POST', '/api/v1/api-keys', { name: 'World key', tier: 'standard', permissions: ['bookings.read'] }).then(
      (k) => k.id,
    ),
    a('POST', '/api/v1/webhooks/subscriptions', { url: receiverUrl, events: ['company.created'] }).then((s) => s.id),
    a('POST', '/api/v1/schedules', exampleBody('createSchedule', all, world)),
    stageAlert(company.companyId, {
      locationId: at,
      alertType: 'print_job.failed',
      severity: 'error',
      title: 'World alert',
    }).then((x) => x.id),
    tabWithoutBooking(company.companyId, at).then((t) => t.id),
    a('PUT', `/api/v1/locations/${at}/booking-settings`, { maxAdvanceDays: 365, operatingHours: everyDay }),
  ]);
  ids.schedule = schedule.id;
  ids.rule = schedule.rules[0]!.id;
  let group: { id: number; variants?: { id: number }[] };
  let order: { id: string; dispatches: { id: string }[] };
  let booking: { id: string; confirmationCode: string };
  [ids.bookingGroup, booking, group, ids.customTag, ids.terminal, order] = await Promise.all([
    a('POST', `/api/v1/locations/${at}/booking-groups`, { name: 'World terrace', tableIds: [ids.table] }).then(
      (g) => g.id,
    ),
    a('POST', '/api/v1/bookings', {
      locationId: at,
      bookingDate: day,
      startTime: '19:00',
      guestCount: 2,
      tableIds: [ids.otherTable],
      guestName: 'Ada Lovelace',
    }),
    a('POST', '/api/v1/variant-groups', {
      locationId: at,
      name: 'Size',
      type: 'single',
      min: 1,
      max: 1,
      variants: [{ name: 'Regular' }],
    }),
    a('POST', '/api/v1/custom-tags', { itemId: ids.item, categoryHandle: 'allergens', key: 'Gluten free' }).then(
      (t) => t.id,
    ),
    a('PUT', `/api/v1/terminals/${randomUUID()}`, {
      locationId: at,
      name: 'World terminal',
      printerGroupId: ids.printerGroup,
    }).then((t) => t.id),
    a('POST', `/api/v1/tabs/${ids.tab}/orders`, {
      items: [{ itemId: ids.item, quantity: 1, coursingId: ids.coursing }],
    }),
  ]);
  ids.booking = booking.id;
  ids.bookingCode = booking.confirmationCode;
  ids.variantGroup = group.id;
  ids.order = order.id;
  ids.dispatch = order.dispatches[0]!.id;
  let waiting: { id: string; code: string };
  [ids.variant, waiting, ids.member, ids.purchase, ids.printJob, ids.delivery] = await Promise.all([
    group.variants?.[0]?.id ??
      a('POST', `/api/v1/variant-groups/${group.id}/variants`, { name: 'Regular' }).then((v) => v.id),
    a('POST', '/api/v1/booking-waitlist', exampleBody('joinWaitlist', all, world)),
    a('POST', `/api/v1/bookings/${ids.booking}/members`, { guestName: 'Grace Hopper' }).then((m) => m.id),
    // a part of the bill: the tab stays open
    a('POST', `/api/v1/tabs/${ids.tab}/purchases`, { amount: 1000, paymentProvider: 'card' }).then((p) => p.id),
    a('POST', '/api/v1/print-jobs/terminal-pre-check', preCheckOfWorldTab(all, world)).then((j) => j.id),
    a('POST', `/api/v1/webhooks/subscriptions/${ids.webhook}/test`).then((d) => d.id),
  ]);
  ids.waitlistEntry = waiting.id;
  ids.waitlistCode = waiting.code;
  await Promise.all([
    a('POST', '/api/v1/reviews', { purchaseIntentId: ids.purchase, rating: 5 }),
    settledDelivery(company.companyId, ids.delivery),
  ]);
  return world;
}
