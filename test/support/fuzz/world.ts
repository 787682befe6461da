/**
 * The fuzz company's world: one of each resource a path can name (a location with tables, a
 * booking group, bookings with their tabs, an order, a purchase, menu items, a schedule …), made
 * over HTTP with the row examples the OpenAPI description shows, their ids swapped for the
 * company's own. A path parameter then names something real (`paramsOf`), so a valid case reaches
 * the operation's own checks and a rejected one is refused next to live data.
 *
 * A resource the world cannot make (its operation refuses the example) is left out and said so:
 * paths that would name it get a well-formed id that names nothing (a 404), which still fuzzes
 * everything before the lookup.
 */
import { randomUUID } from 'node:crypto';
import type { Route } from '../../../shared/routes';
import { route as routeOf, type OperationId } from '../../../shared/routes';
import { call } from '../http';
import { stageAlert, tabWithoutBooking } from '../stage-data';
import { branches, dayAhead, plain, validValue, type Json } from './schema';

export interface World {
  companyId: number;
  /** Ids by `segment/{param}` (the path segment before the parameter) or by `{param}`. */
  ids: Record<string, string>;
  /** Values the examples' fields are given: locationId → the world's location, and so on. */
  values: Record<string, unknown>;
  /** What could not be made, and why. */
  missing: string[];
}

const everyDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ open: '10:00', close: '23:00' }]]));

/** The first example of a row's body (the OpenAPI description's), or a valid value of its schema. */
export function exampleOf(route: Route): unknown {
  if (!route.schemas.body) return undefined;
  const schema = plain(route.schemas.body);
  return Array.isArray(schema.examples) && schema.examples.length ? schema.examples[0] : validValue(schema);
}

const isDate = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
const isInstant = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v);

/** An example with the world's ids in place of the example's, and dates moved to days ahead. */
export function adapt(value: unknown, values: Record<string, unknown>, key?: string): unknown {
  if (key !== undefined && key in values && values[key] !== undefined) return values[key];
  if (Array.isArray(value)) return value.map((v) => adapt(v, values));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, adapt(v, values, k)]));
  if (isDate(value)) return dayAhead(10);
  if (isInstant(value)) return new Date(Date.now() + 10 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return value;
}

/** Builds the world with the company's admin key (and the platform operator's token for its one path). */
export async function makeWorld(companyId: number, key: string): Promise<World> {
  const world: World = { companyId, ids: { '{companyId}': String(companyId) }, values: {}, missing: [] };
  const { ids, values } = world;
  const make = async (operationId: OperationId, params: Record<string, string>, body?: unknown): Promise<any> => {
    const r = routeOf(operationId);
    const path = r.path.replace(/\{(\w+)\}/g, (_m, n: string) => params[n] ?? '');
    const out = await call(r.method, path, { key, ...(r.schemas.body ? { body: body ?? adapt(exampleOf(r), values) } : {}) });
    if (out.status !== 200) {
      world.missing.push(`${operationId}: ${out.status} ${JSON.stringify(out.body?.error ?? out.body).slice(0, 300)}`);
      return undefined;
    }
    return out.body.data;
  };

  const location = await make('createLocation', {}, { ...(adapt(exampleOf(routeOf('createLocation')), values) as object), operatingHours: everyDay });
  if (!location) throw new Error(`the fuzz world has no location: ${world.missing.join('; ')}`);
  const loc = String(location.id);
  // Dates a query or body names: days ahead for bookings, today for a report's range.
  Object.assign(values, { locationId: location.id, locationIds: [location.id], date: dayAhead(10), startDate: dayAhead(0), endDate: dayAhead(0) });
  ids['{locationId}'] = loc;
  const lp = { locationId: loc };
  const tables = [];
  for (const name of ['F1', 'F2', 'F3']) {
    const t = await make('createTable', lp, { name, minCapacity: 1, maxCapacity: 8 });
    if (t) tables.push(t);
  }
  if (tables.length) {
    ids['tables/{id}'] = tables[0].id;
    Object.assign(values, { tableId: tables[0].id, tableIds: [tables[0].id] });
  }
  const group = await make('createBookingGroup', lp, { name: 'Fuzz room', tableIds: tables.slice(1).map((t) => t.id) });
  if (group) ids['booking-groups/{id}'] = group.id;

  const item = await make('createItem', {});
  if (item) Object.assign(values, { itemId: item.id }), (ids['items/{id}'] = String(item.id));
  const coursing = await make('createCoursing', {});
  if (coursing) Object.assign(values, { coursingId: coursing.id }), (ids['coursings/{id}'] = coursing.id);
  const tag = await make('createCustomTag', {});
  if (tag) values.customTagId = tag.id;
  const vg = await make('createVariantGroup', {});
  if (vg) {
    ids['variant-groups/{id}'] = vg.id;
    if (vg.variants?.[0]) ids['{variantId}'] = vg.variants[0].id;
  }
  const role = await make('createRole', {});
  if (role) Object.assign(values, { roleId: role.id }), (ids['roles/{id}'] = String(role.id));
  const apiKey = await make('createApiKey', {}, { name: 'Fuzz world key', tier: 'standard', permissions: ['bookings.read'] });
  if (apiKey) ids['api-keys/{id}'] = String(apiKey.id ?? apiKey.key?.id);
  const guest = await make('createGuest', {});
  if (guest) values.primaryUserId = guest.id ?? guest.guest?.id;

  const bookingBody = (extra: object) => ({ locationId: location.id, bookingDate: dayAhead(10), startTime: '19:00', guestCount: 2, guestName: 'Fuzz Guest', ...extra });
  const booking = await make('createBooking', {}, bookingBody({ tableIds: tables.slice(0, 1).map((t) => t.id) }));
  if (booking) {
    ids['bookings/{id}'] = booking.id;
    ids['by-code/{code}'] = booking.confirmationCode;
    values.confirmationCode = booking.confirmationCode;
    const member = await make('addBookingMember', { id: booking.id });
    if (member) ids['{memberId}'] = member.id;
  }
  // An open tab without a booking (a bar tab): orders and purchases go on it.
  const tab = await tabWithoutBooking(companyId, location.id);
  const tabId = tab.id;
  ids['{tabId}'] = tabId;
  const order = await make('createTabOrder', { tabId });
  if (order) {
    ids['{orderId}'] = order.id;
    if (order.dispatches?.[0]) ids['{dispatchId}'] = order.dispatches[0].id;
  }
  const purchase = await make('createTabPurchase', { tabId }, { amount: 1000, vatRows: [{ vatRate: 12, amount: 1000 }], paymentProvider: 'cash' });
  if (purchase) Object.assign(values, { purchaseIntentId: purchase.purchaseIntentId }), (ids['{purchaseIntentId}'] = purchase.purchaseIntentId);
  const schedule = await make('createSchedule', {});
  if (schedule) {
    ids['schedules/{id}'] = schedule.id;
    ids['{scheduleId}'] = schedule.id;
    if (schedule.rules?.[0]) ids['{ruleId}'] = schedule.rules[0].id;
  }
  const capacity = await make('createCapacitySetting', lp);
  if (capacity) ids['capacity-settings/{id}'] = capacity.id;
  const printers = await make('createPrinterGroup', {});
  if (printers) Object.assign(values, { printerGroupId: printers.id }), (ids['printer-groups/{id}'] = printers.id), (ids['{printerGroupId}'] = printers.id);
  const terminalId = randomUUID();
  const terminal = await make('putTerminal', { id: terminalId });
  if (terminal) Object.assign(values, { terminalId }), (ids['terminals/{id}'] = terminalId);
  const waiting = await make('joinWaitlist', {});
  if (waiting) (ids['booking-waitlist/{id}'] = waiting.id), (ids['booking-waitlist/by-code/{code}'] = waiting.code);
  const alert = await stageAlert(companyId, { locationId: location.id, alertType: 'fuzz', severity: 'warning', title: 'Fuzz world alert' });
  ids['alerts/{id}'] = alert.id;
  return world;
}

/**
 * The path parameters of a route in the world: the id the world has for `segment/{param}` (the
 * longest match of the segments before it) or `{param}`, else a well-formed id that names nothing.
 */
export function paramsOf(world: World, route: Route): Record<string, string> {
  const segments = route.path.split('/');
  const schema = plain(route.schemas.path ?? {}) as Json;
  const out: Record<string, string> = {};
  segments.forEach((seg, i) => {
    const m = /^\{(\w+)\}$/.exec(seg);
    if (!m) return;
    const name = m[1]!;
    const before = segments.slice(0, i).filter((s) => !s.startsWith('{'));
    const candidates = [before.slice(-3).join('/'), before.slice(-2).join('/'), before.slice(-1).join('/')].map((p) => `${p}/${seg}`);
    const known = [...candidates, seg].map((k) => world.ids[k]).find((v) => v !== undefined);
    const sub = (schema.properties?.[name] ?? { type: 'string' }) as Json;
    out[name] = known ?? String(validValue(branches(sub)[0]!));
  });
  return out;
}
