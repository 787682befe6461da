/**
 * Crash injection for every operation that writes (docs/testing.md), against DynamoDB Local, in two modes:
 *
 *   A  the write fails: each write command of the operation in turn throws before it is sent
 *      (the first, then the second, … until the operation sends fewer). The operation surfaces the
 *      error and every item of the company is exactly as before: no half-written change, no event.
 *      The run that no longer reaches the crash point is the clean run.
 *   B  the write commits but its answer is lost: each write command reaches DynamoDB, commits,
 *      and its first answer is replaced by ECONNRESET, so the SDK sends it again (maxAttempts 3,
 *      as shared/data/client.ts). The operation must answer as the clean run did and change the
 *      company exactly as the clean run changed its own: nothing doubled, nothing refused.
 *
 * Each row is one operation of the route table (a POST, PUT, PATCH or DELETE, and the GET that
 * stores default booking settings): a setup in a company of its own, the call, and the company's
 * state read back by key (test/support/crash.ts). The webhook pipeline's writes follow the
 * table; they are not one transaction, so there a crash is followed by the redelivery the
 * pipeline relies on.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtInPermissions } from '../../shared/auth/catalog';
import type { Principal } from '../../shared/auth/principal';
import { db, setDb, tableName } from '../../shared/data/client';
import { ID_BLOCK_SIZE, nextId, releaseIdBlocks } from '../../shared/data/ids';
import type { DeliveryRef } from '../../shared/data/outbox';
import { deliveries } from '../../shared/data/webhookDeliveries';
import { createApiKey, revokeApiKey, updateApiKey } from '../../shared/domain/apiKeys';
import { createBookingGroup, deleteBookingGroup, updateBookingGroup } from '../../shared/domain/bookingGroups';
import { addBookingMember, addMemberByCode, rsvp, updateBookingMember } from '../../shared/domain/bookingMembers';
import { createBooking } from '../../shared/domain/bookings/create';
import { changeBookingByCode } from '../../shared/domain/online/byCode';
import { createOnlineBooking, joinOnlineWaitlist } from '../../shared/domain/online/guest';
import { optimizeBookings } from '../../shared/domain/bookings/optimize';
import { placeOrder, setPreOrder, updateDispatch } from '../../shared/domain/bookings/orders';
import { seatBooking, splitTabs, unseatBooking } from '../../shared/domain/bookings/seating';
import { getBookingSettings, putBookingSettings } from '../../shared/domain/bookings/settings';
import {
  cancelBooking,
  cancelByCode,
  checkInBooking,
  completeBooking,
  confirmBooking,
  lockBooking,
  markNoShow,
} from '../../shared/domain/bookings/transitions';
import { updateBooking } from '../../shared/domain/bookings/update';
import {
  createCapacitySetting,
  deleteCapacitySetting,
  updateCapacitySetting,
} from '../../shared/domain/capacity/settings';
import { createCompany, createCompanyApiKey, onboardCompany } from '../../shared/domain/companies';
import { deleteExtendedWaitingTime, putExtendedWaitingTime } from '../../shared/domain/capacity/waitingTime';
import { createCoursing, updateCoursing } from '../../shared/domain/coursings';
import { createCustomTag, linkCustomTag, unlinkCustomTag } from '../../shared/domain/customTags';
import {
  acceptWaitlistOffer,
  declineWaitlistOffer,
  getWaitlistByCode,
  joinWaitlist,
  leaveWaitlist,
  offerWaitlistSpot,
} from '../../shared/domain/waitlist/operations';
import { createGuest } from '../../shared/domain/guests';
import { raiseAlert } from '../../shared/data/alerts';
import { acknowledgeAlert, newAlert, resolveAlert } from '../../shared/domain/alerts';
import { patchReportEmails, putExportSettings } from '../../shared/domain/reporting/operations';
import {
  createPrinterGroup,
  deletePrinterGroup,
  deleteTerminal,
  putTerminal,
  reportPrintJob,
  terminalPreCheck,
  updatePrinterGroup,
} from '../../shared/domain/printing/operations';
import { createItem, deleteItem, updateItem } from '../../shared/domain/items';
import {
  addScheduleRule,
  createSchedule,
  deleteSchedule,
  deleteScheduleRule,
  replaceScheduleRules,
  updateSchedule,
  updateScheduleRule,
} from '../../shared/domain/schedules/operations';
import {
  createVariant,
  createVariantGroup,
  deleteVariant,
  deleteVariantGroup,
  linkVariant,
  unlinkVariant,
  updateVariant,
  updateVariantGroup,
} from '../../shared/domain/variantGroups';
import { createLocation, deleteLocation, updateLocation } from '../../shared/domain/locations';
import { createPermission, deletePermission, updatePermission } from '../../shared/domain/permissions';
import { createRole, updateRole } from '../../shared/domain/roles';
import { createTable, deleteTable, updateTable } from '../../shared/domain/tables';
import { createPurchase, markPickedUp } from '../../shared/domain/tabs/purchases';
import { createReview } from '../../shared/domain/tabs/reviews';
import { addAnonymousMember, closeAllTabs } from '../../shared/domain/tabs/tabs';
import {
  createSubscription,
  deleteSubscription,
  retryDelivery,
  rotateSubscriptionSecret,
  sendTestEvent,
  updateSubscription,
} from '../../shared/domain/webhooks';
import { newEvent } from '../../shared/events/catalog';
import { routes } from '../../shared/routes';
import { attemptDelivery } from '../../shared/webhooks/delivery';
import { dispatch } from '../../shared/webhooks/dispatch';
import { newDelivery } from '../../shared/webhooks/payload';
import { MAX_ATTEMPTS, leaseMs } from '../../shared/webhooks/schedule';
import { webhookSettings } from '../../shared/webhooks/settings';
import { answerShape, changeShape, CrashClient, InjectedCrash, snapshot, type SentWrite } from '../support/crash';
import { idBlock } from '../support/id-blocks';
import { weekdays } from '../../shared/schemas/locations';

/** Open all day every day: a booking without tables must lie within the booking hours (docs/bookings.md). */
const ALL_DAY = Object.fromEntries(weekdays.map((d) => [d, [{ open: '00:00', close: '24:00' }]]));

const ids = idBlock(import.meta.url);
/** Every company's one location has this id (keys hold the company, so they never meet). */
const LOCATION = 7;
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

let crash: CrashClient;

interface Company {
  companyId: number;
  principal: Principal;
}

/** A company of the file's block; its writes are recorded from here on. */
function newCompany(): Company {
  const companyId = ids.next();
  crash.companyId = companyId;
  const principal: Principal = {
    kind: 'user',
    companyId,
    permissions: [...builtInPermissions],
    tier: 'unlimited',
    locationIds: null,
    rateSubject: `test:${companyId}`,
    internalOperator: true,
  };
  return { companyId, principal };
}

/** The company's state: every item its writes ever touched, as it is now. */
const stateOf = (c: Company) => snapshot(crash.keysOf(c.companyId));

// ---------------------------------------------------------------------------------------------
// Fixtures, made through the domain as a client would make them.

interface Place {
  locationId: number;
  tableIds: string[];
}

async function place(
  c: Company,
  options: { settings?: Record<string, unknown> | false; tables?: number } = {},
): Promise<Place> {
  await createLocation(
    c.principal,
    { name: 'Crash bistro', timezone: 'Europe/Stockholm', operatingHours: ALL_DAY },
    LOCATION,
  );
  const tableIds: string[] = [];
  for (let i = 1; i <= (options.tables ?? 2); i++)
    tableIds.push((await createTable(c.principal, LOCATION, { name: `C${i}`, minCapacity: 1, maxCapacity: 6 })).id);
  if (options.settings !== false)
    await putBookingSettings(c.principal, LOCATION, { autoNoShowDelayMinutes: 30, ...options.settings });
  return { locationId: LOCATION, tableIds };
}

const guest = (c: Company) => createGuest(c.principal, { name: 'Greta Guest', email: `greta@c${c.companyId}.example` });

/** A booking for tomorrow evening at the first table(s), of a guest of the company. */
async function booking(c: Company, p: Place, extra: Record<string, unknown> = {}) {
  const g = await guest(c);
  return createBooking(c.principal, {
    locationId: p.locationId,
    bookingDate: tomorrow,
    startTime: '18:00',
    endTime: '20:00',
    guestCount: 2,
    tableIds: [p.tableIds[0]!],
    primaryUserId: g.id,
    ...extra,
  });
}

const item = (c: Company) =>
  createItem(c.principal, {
    locationId: LOCATION,
    name: 'Pytt i panna',
    price: 18900,
    vatRate: 12,
    categoryHandle: 'mains',
    costCenter: { code: '3010', name: 'Kitchen' },
  });

/** A multiple-choice group of two legacy variants at the company's location. */
const variantGroup = (c: Company) =>
  createVariantGroup(c.principal, {
    locationId: LOCATION,
    name: 'Sides',
    type: 'multiple',
    variants: [{ name: 'Fries' }, { name: 'Salad', price: 500 }],
  });
/** A group whose first variant links to an item. */
async function linkedGroup(c: Company) {
  await place(c);
  const [group, i] = [await variantGroup(c), await item(c)];
  await linkVariant(c.principal, String(group.variants![0]!.id), { itemId: i.id });
  return { group, item: i, variantId: String(group.variants![0]!.id) };
}

/** A menu layout's schedule of two rules at the company's location (its changes also send menu-layouts.updated). */
async function schedule(
  c: Company,
  entity: { entityType: 'menu_layout' | 'location_hours'; entityId: string } = {
    entityType: 'menu_layout',
    entityId: 'brunch',
  },
) {
  await place(c);
  return createSchedule(c.principal, {
    locationId: LOCATION,
    ...entity,
    name: 'Brunch',
    rules: [
      { ruleType: 'weekly', weekday: 6, startTime: '10:00', endTime: '14:00' },
      { ruleType: 'weekly', weekday: 0 },
    ],
  });
}
const weekendNights = [
  { ruleType: 'weekly' as const, weekday: 5, startTime: '22:00', endTime: '02:00' },
  { ruleType: 'weekly' as const, weekday: 6, startTime: '22:00', endTime: '02:00' },
  { ruleType: 'date_range' as const, startDate: '2030-12-31', endDate: '2030-12-31', isAvailable: false },
];

async function coursing(c: Company) {
  return createCoursing(c.principal, { locationId: LOCATION, title: 'Mains', order: 1 });
}

/** A seated booking whose pre-order went to the kitchen (one order, one dispatch per coursing). */
async function seated(c: Company) {
  const p = await place(c);
  const mains = await coursing(c);
  const b = await booking(c, p);
  await setPreOrder(c.principal, b.id, {
    items: [
      { name: 'Soup', price: 900, quantity: 2 },
      { name: 'Steak', price: 2900, quantity: 1, coursingId: mains.id },
    ],
  });
  return { p, mains, booking: await seatBooking(c.principal, b.id, {}) };
}

/** Letters only (permission keys have no digits): the company's id spelled a-j. */
const spelled = (n: number) => String(n).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
const permission = (c: Company, name = 'thing') =>
  createPermission(c.principal, { key: `crash_${spelled(c.companyId)}.${name}`, name: 'Crash permission' });

/** Every day, the whole day: whatever slot an order falls in is counted. */
const capacitySetting = (c: Company) =>
  createCapacitySetting(c.principal, LOCATION, {
    name: 'Always',
    validOnDays: [1, 2, 3, 4, 5, 6, 7],
    orderCapacity: 50,
    itemCapacity: 500,
  });
const waitingTime = (c: Company, delayInMinutes = 20) =>
  putExtendedWaitingTime(c.principal, {
    locationId: LOCATION,
    endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    delayInMinutes,
  });

/** A party of two on the waitlist for tomorrow evening. */
const waiting = (c: Company) =>
  joinWaitlist(c.principal, {
    locationId: LOCATION,
    partySize: 2,
    desiredDate: tomorrow,
    windowStart: '18:00',
    windowEnd: '21:00',
    guestName: 'Wally Wait',
  });
/** The same, offered the first table at 18:00-20:00 (held 15 minutes). */
async function offered(c: Company) {
  const p = await place(c);
  return offerWaitlistSpot(c.principal, (await waiting(c)).id, {
    tableIds: [p.tableIds[0]!],
    startTime: '18:00',
    endTime: '20:00',
  });
}

const subscription = (c: Company) => createSubscription(c.principal, { url: 'http://127.0.0.1:9/hook', events: ['*'] });

/** An active alert of the company at its location, as the service raises one. */
async function alertOf(c: Company) {
  const alert = newAlert({
    locationId: LOCATION,
    alertType: 'print_job.failed',
    severity: 'error',
    title: 'Printer jammed',
  });
  await raiseAlert(c.companyId, alert);
  return alert;
}
const TERMINAL = '0b7c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4';
const printerGroup = (c: Company) =>
  createPrinterGroup(c.principal, { locationId: LOCATION, name: 'Pass printer', width: 32 });
/** A terminal at the location printing to a new group. */
const terminalOf = async (c: Company) =>
  putTerminal(c.principal, TERMINAL, {
    locationId: LOCATION,
    name: 'Bar 1',
    printerGroupId: (await printerGroup(c)).id,
  });
const preCheckOf = (c: Company, terminalId: string, tabId: string) =>
  terminalPreCheck(c.principal, {
    locationId: LOCATION,
    terminalId,
    tabId,
    content: {
      tableName: 'C1',
      totalAmount: 4700,
      lineItems: [{ name: 'Soup', price: 900, vatRate: 12, modifications: [{ name: 'Bread', price: 0 }] }],
    },
  });
/** A queued pre-check of a seated booking's tab. */
async function queuedJob(c: Company) {
  const s = await seated(c);
  const t = await terminalOf(c);
  return preCheckOf(c, t.id, s.booking.tab.id);
}
const exportSettingsBody = {
  locationId: LOCATION,
  exportType: 'sie' as const,
  includeServiceFees: true,
  accounts: {
    sales: { '25': '3001', '12': '3002' },
    vat: { '25': '2611', '12': '2621' },
    paymentProviders: { card: '1580' },
    tips: '2890',
    serviceFees: '3590',
  },
};

/** A company onboarded as an operator would (ids from the platform's counter, outside the file's block). */
const tenant = async () => (await onboardCompany({ id: await nextId('company'), name: 'Crash tenant' })).company;

// ---------------------------------------------------------------------------------------------
// The operations.

interface Row<S> {
  /** The route-table operation the row exercises (several rows may exercise one). */
  op: string;
  /** What this row's variant does, when an operation has several. */
  variant?: string;
  setup(c: Company): Promise<S>;
  run(c: Company, s: S): Promise<unknown>;
}

/** Keeps each row's setup and run agreeing on the setup's type. */
const row = <S>(r: Row<S>) => r as Row<unknown>;

const rows: Row<unknown>[] = [
  // access
  row({ op: 'createPermission', setup: async () => undefined, run: (c) => permission(c) }),
  row({
    op: 'updatePermission',
    setup: (c) => permission(c),
    run: (c, p) => updatePermission(c.principal, p.id, { name: 'Renamed' }),
  }),
  row({ op: 'deletePermission', setup: (c) => permission(c), run: (c, p) => deletePermission(c.principal, p.id) }),
  row({
    op: 'createRole',
    variant: 'counts the custom permission it names',
    setup: (c) => permission(c),
    run: (c, p) => createRole(c.principal, { name: 'Crash role', permissionIds: [p.id] }),
  }),
  row({
    op: 'updateRole',
    variant: 'moves its count from one custom permission to another',
    setup: async (c) => {
      const [one, two] = [await permission(c, 'one'), await permission(c, 'two')];
      return { two, role: await createRole(c.principal, { name: 'Crash role', permissionIds: [one.id] }) };
    },
    run: (c, s) => updateRole(c.principal, s.role.id, { name: 'Renamed', permissionIds: [s.two.id] }),
  }),
  // Onboarding: the operator's writes land in a new company (its items are recorded as the row's).
  // The setup onboards a tenant first, so the list's count is in the row's state before the run (counted up, not made).
  row({ op: 'createCompany', setup: () => tenant(), run: (c) => createCompany(c.principal, { name: 'Crash tenant' }) }),
  row({
    op: 'createCompanyApiKey',
    setup: () => tenant(),
    run: (c, tenant) => createCompanyApiKey(c.principal, tenant.id, { name: 'First admin key' }),
  }),
  row({
    op: 'createApiKey',
    setup: (c) => permission(c),
    run: (c, p) => createApiKey(c.principal, { name: 'Crash key', tier: 'standard', permissions: [p.key] }),
  }),
  row({
    op: 'updateApiKey',
    setup: async (c) =>
      createApiKey(c.principal, { name: 'Crash key', tier: 'standard', permissions: ['bookings.read'] }),
    run: (c, k) => updateApiKey(c.principal, k.id, { name: 'Renamed', tier: 'premium' }),
  }),
  row({
    op: 'deleteApiKey',
    setup: (c) => createApiKey(c.principal, { name: 'Crash key', tier: 'standard', permissions: ['bookings.read'] }),
    run: (c, k) => revokeApiKey(c.principal, k.id),
  }),
  row({
    op: 'revokeApiKey',
    setup: (c) =>
      permission(c).then((p) =>
        createApiKey(c.principal, { name: 'Crash key', tier: 'standard', permissions: [p.key] }),
      ),
    run: (c, k) => revokeApiKey(c.principal, k.id),
  }),

  // booking members
  row({
    op: 'addBookingMember',
    setup: async (c) => booking(c, await place(c)),
    run: (c, b) => addBookingMember(c.principal, b.id, { guestName: 'Mia Member', guestEmail: 'mia@example.com' }),
  }),
  row({
    op: 'updateBookingMember',
    setup: async (c) => {
      const b = await booking(c, await place(c));
      return { b, m: await addBookingMember(c.principal, b.id, { guestName: 'Mia Member' }) };
    },
    run: (c, s) => updateBookingMember(c.principal, s.b.id, s.m.id, { rsvpStatus: 'accepted' }),
  }),
  row({
    op: 'addBookingMemberByCode',
    setup: async (c) => booking(c, await place(c)),
    run: (_c, b) => addMemberByCode(b.confirmationCode, { guestName: 'Cody Code' }),
  }),
  row({
    op: 'rsvpBooking',
    variant: 'adds the member',
    setup: async (c) => booking(c, await place(c)),
    run: (_c, b) =>
      rsvp({
        confirmationCode: b.confirmationCode,
        guestName: 'Rae',
        guestEmail: 'rae@example.com',
        rsvpStatus: 'accepted',
      }),
  }),
  row({
    op: 'rsvpBooking',
    variant: "sets an existing member's reply",
    setup: async (c) => {
      const b = await booking(c, await place(c));
      await addBookingMember(c.principal, b.id, { guestName: 'Rae', guestEmail: 'rae@example.com' });
      return b;
    },
    run: (_c, b) =>
      rsvp({
        confirmationCode: b.confirmationCode,
        guestName: 'Rae',
        guestEmail: 'rae@example.com',
        rsvpStatus: 'declined',
      }),
  }),

  // bookings
  row({
    op: 'getBookingSettings',
    variant: 'the first read stores the defaults',
    setup: (c) => place(c, { settings: false }),
    run: (c) => getBookingSettings(c.principal, LOCATION),
  }),
  row({
    op: 'putBookingSettings',
    variant: 'first write',
    setup: (c) => place(c, { settings: false }),
    run: (c) => putBookingSettings(c.principal, LOCATION, { bufferMinutes: 30 }),
  }),
  row({
    op: 'putBookingSettings',
    variant: 'change',
    setup: (c) => place(c),
    run: (c) => putBookingSettings(c.principal, LOCATION, { bufferMinutes: 30 }),
  }),
  row({
    op: 'createBooking',
    variant: 'two tables, a tab each, a guest',
    setup: async (c) => ({ p: await place(c), g: await guest(c) }),
    run: (c, s) =>
      createBooking(c.principal, {
        locationId: LOCATION,
        bookingDate: tomorrow,
        startTime: '18:00',
        guestCount: 4,
        tableIds: s.p.tableIds,
        defaultTabStrategy: 'per_resource',
        primaryUserId: s.g.id,
      }),
  }),
  row({
    op: 'createBooking',
    variant: 'a walk-in seated at once',
    setup: (c) => place(c),
    run: (c, p) =>
      createBooking(c.principal, {
        locationId: LOCATION,
        bookingDate: tomorrow,
        startTime: '12:00',
        endTime: '13:00',
        guestCount: 2,
        tableIds: [p.tableIds[0]!],
        seatImmediately: true,
      }),
  }),
  row({
    op: 'createBooking',
    variant: 'without tables: a table assigned automatically, its holds read then',
    setup: (c) => place(c),
    run: (c) =>
      createBooking(c.principal, {
        locationId: LOCATION,
        bookingDate: tomorrow,
        startTime: '18:00',
        endTime: '20:00',
        guestCount: 2,
        guestName: 'Ada Auto',
      }),
  }),
  row({
    op: 'createOnlineBooking',
    variant: "a guest's, linked to the guest their email belongs to",
    setup: async (c) => ({ p: await place(c), g: await guest(c) }),
    run: (c) =>
      createOnlineBooking(c.principal, {
        locationId: LOCATION,
        bookingDate: tomorrow,
        startTime: '18:00',
        guestCount: 2,
        guestName: 'Greta Guest',
        guestEmail: `greta@c${c.companyId}.example`,
      }),
  }),
  row({
    op: 'updateBooking',
    variant: 'new time and tables: holds, tabs and the sweep item move',
    setup: async (c) => {
      const p = await place(c, { tables: 3 });
      return { p, b: await booking(c, p) };
    },
    run: (c, s) =>
      updateBooking(c.principal, s.b.id, {
        startTime: '19:00',
        endTime: '21:00',
        tableIds: [s.p.tableIds[1]!, s.p.tableIds[2]!],
        defaultTabStrategy: 'per_resource',
      }),
  }),
  row({
    op: 'confirmBooking',
    setup: async (c) => booking(c, await place(c, { settings: { confirmationMode: 'request_based' } })),
    run: (c, b) => confirmBooking(c.principal, b.id),
  }),
  row({
    op: 'optimizeBookings',
    variant: 'one move: a couple from a six-top to the two-top (holds, tabs, the event)',
    setup: async (c) => {
      const p = await place(c);
      await createTable(c.principal, LOCATION, { name: 'Two-top', minCapacity: 1, maxCapacity: 2 });
      return booking(c, p);
    },
    run: (c) => optimizeBookings(c.principal, LOCATION, tomorrow, { dryRun: false }),
  }),
  row({
    op: 'checkInBooking',
    setup: async (c) => booking(c, await place(c)),
    run: (c, b) => checkInBooking(c.principal, b.id),
  }),
  row({ op: 'completeBooking', setup: (c) => seated(c), run: (c, s) => completeBooking(c.principal, s.booking.id) }),
  row({
    op: 'markBookingNoShow',
    setup: async (c) => booking(c, await place(c)),
    run: (c, b) => markNoShow(c.principal, b.id),
  }),
  row({
    op: 'cancelBooking',
    variant: 'a seated booking',
    setup: (c) => seated(c),
    run: (c, s) => cancelBooking(c.principal, s.booking.id, { reason: 'Crash test' }),
  }),
  row({
    op: 'cancelBookingByCode',
    setup: async (c) => booking(c, await place(c)),
    run: (_c, b) => cancelByCode(b.confirmationCode),
  }),
  row({
    op: 'changeBookingByCode',
    variant: 'a later time: its table again, its no-show sweep item moved',
    setup: async (c) => booking(c, await place(c)),
    run: (_c, b) => changeBookingByCode(b.confirmationCode, { startTime: '19:30' }),
  }),
  row({
    op: 'lockBooking',
    setup: async (c) => booking(c, await place(c)),
    run: (c, b) => lockBooking(c.principal, b.id, true),
  }),
  row({
    op: 'seatBooking',
    variant: 'with a pre-order: tabs, claims, the kitchen order',
    setup: async (c) => {
      const p = await place(c);
      const mains = await coursing(c);
      const b = await booking(c, p);
      await setPreOrder(c.principal, b.id, {
        items: [
          { name: 'Soup', price: 900, quantity: 2 },
          { name: 'Steak', price: 2900, quantity: 1, coursingId: mains.id },
        ],
      });
      return b;
    },
    run: (c, b) => seatBooking(c.principal, b.id, {}),
  }),
  row({
    op: 'unseatBooking',
    variant: 'reverses the kitchen order, queues a correction',
    setup: (c) => seated(c),
    run: (c, s) => unseatBooking(c.principal, s.booking.id, 'Crash test'),
  }),
  row({
    op: 'splitBookingTabs',
    setup: async (c) => {
      const p = await place(c);
      const b = await booking(c, p, { tableIds: p.tableIds });
      return seatBooking(c.principal, b.id, {});
    },
    run: (c, b) => splitTabs(c.principal, b.id),
  }),
  row({
    op: 'setPreOrder',
    setup: async (c) => booking(c, await place(c)),
    run: (c, b) => setPreOrder(c.principal, b.id, { items: [{ name: 'Cake', price: 4500, quantity: 1 }] }),
  }),
  row({
    op: 'createTabOrder',
    setup: (c) => seated(c),
    run: (c, s) =>
      placeOrder(c.principal, s.booking.tab.id, {
        items: [{ name: 'Wine', price: 1200, quantity: 2, coursingId: s.mains.id }],
      }),
  }),
  row({
    op: 'createTabOrder',
    variant: 'a line naming an item',
    setup: async (c) => ({ ...(await seated(c)), item: await item(c) }),
    run: (c, s) =>
      placeOrder(c.principal, s.booking.tab.id, {
        items: [{ itemId: s.item.id, quantity: 1, coursingId: s.mains.id }],
      }),
  }),
  row({
    op: 'updateOrderDispatch',
    setup: async (c) => {
      const s = await seated(c);
      return placeOrder(c.principal, s.booking.tab.id, { items: [{ name: 'Wine', price: 1200, quantity: 2 }] });
    },
    run: (c, order) => updateDispatch(c.principal, order.id, order.dispatches[0]!.id, { status: 'accepted' }),
  }),

  // capacity (slot counters move in the order's own transaction)
  row({ op: 'createCapacitySetting', setup: (c) => place(c), run: (c) => capacitySetting(c) }),
  row({
    op: 'updateCapacitySetting',
    setup: async (c) => (await place(c), capacitySetting(c)),
    run: (c, k) => updateCapacitySetting(c.principal, LOCATION, k.id, { orderCapacity: 10, name: 'Busy' }),
  }),
  row({
    op: 'deleteCapacitySetting',
    setup: async (c) => (await place(c), capacitySetting(c)),
    run: (c, k) => deleteCapacitySetting(c.principal, LOCATION, k.id),
  }),
  row({
    op: 'createTabOrder',
    variant: "under a capacity setting: the slot's counter",
    setup: async (c) => {
      const s = await seated(c);
      await capacitySetting(c);
      return s;
    },
    run: (c, s) => placeOrder(c.principal, s.booking.tab.id, { items: [{ name: 'Wine', price: 1200, quantity: 2 }] }),
  }),
  row({
    op: 'setPreOrder',
    variant: "under a capacity setting: the slot's counter",
    setup: async (c) => {
      const p = await place(c);
      await capacitySetting(c);
      return booking(c, p);
    },
    run: (c, b) => setPreOrder(c.principal, b.id, { items: [{ name: 'Cake', price: 4500, quantity: 3 }] }),
  }),
  row({ op: 'putExtendedWaitingTime', variant: 'starts one', setup: (c) => place(c), run: (c) => waitingTime(c) }),
  row({
    op: 'putExtendedWaitingTime',
    variant: 'changes the running one',
    setup: async (c) => (await place(c), waitingTime(c)),
    run: (c) => waitingTime(c, 45),
  }),
  row({
    op: 'deleteExtendedWaitingTime',
    setup: async (c) => (await place(c), waitingTime(c)),
    run: (c) => deleteExtendedWaitingTime(c.principal, { locationId: LOCATION }),
  }),

  // the waitlist
  row({ op: 'joinWaitlist', setup: (c) => place(c), run: (c) => waiting(c) }),
  row({
    op: 'joinOnlineWaitlist',
    setup: (c) => place(c),
    run: (c) =>
      joinOnlineWaitlist(c.principal, {
        locationId: LOCATION,
        partySize: 2,
        desiredDate: tomorrow,
        windowStart: '18:00',
        guestName: 'Wanda Web',
        guestPhone: '+46701234567',
      }),
  }),
  row({
    op: 'offerWaitlistSpot',
    variant: 'holds the table in its table day',
    setup: async (c) => ({ p: await place(c), e: await waiting(c) }),
    run: (c, s) =>
      offerWaitlistSpot(c.principal, s.e.id, { tableIds: [s.p.tableIds[0]!], startTime: '18:00', endTime: '20:00' }),
  }),
  row({
    op: 'acceptWaitlistOffer',
    variant: 'the booking, its tab, code and hold with the entry',
    setup: (c) => offered(c),
    run: (_c, e) => acceptWaitlistOffer(e.code),
  }),
  row({
    op: 'declineWaitlistOffer',
    variant: 'frees the table',
    setup: (c) => offered(c),
    run: (_c, e) => declineWaitlistOffer(e.code),
  }),
  row({
    op: 'leaveWaitlist',
    variant: 'while offered: frees the table',
    setup: (c) => offered(c),
    run: (_c, e) => leaveWaitlist(e.code),
  }),
  row({
    op: 'getWaitlistByCode',
    variant: 'a lapsed offer is expired by the read: its hold released',
    setup: (c) => offered(c),
    run: async (_c, e) => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(e.offer!.expiresAt) + 1000 });
      try {
        return await getWaitlistByCode(e.code);
      } finally {
        vi.useRealTimers();
      }
    },
  }),

  // guests and the menu
  row({
    op: 'createGuest',
    setup: async () => undefined,
    run: (c) =>
      createGuest(c.principal, { name: 'Nils  Nilsson', email: 'nils@example.com', phone: '+46 70 123 45 67' }),
  }),
  row({ op: 'createCoursing', setup: (c) => place(c), run: (c) => coursing(c) }),
  row({
    op: 'updateCoursing',
    setup: async (c) => (await place(c), coursing(c)),
    run: (c, k) => updateCoursing(c.principal, k.id, { title: 'Starters', order: 0 }),
  }),
  row({ op: 'createItem', setup: (c) => place(c), run: (c) => item(c) }),
  row({
    op: 'updateItem',
    variant: 'a new category moves its counters',
    setup: async (c) => (await place(c), item(c)),
    run: (c, i) => updateItem(c.principal, i.id, { price: 19900, categoryHandle: 'specials' }),
  }),
  row({
    op: 'deleteItem',
    setup: async (c) => (await place(c), item(c)),
    run: (c, i) => deleteItem(c.principal, i.id),
  }),
  row({
    op: 'createCustomTag',
    variant: 'linked to the item',
    setup: async (c) => (await place(c), item(c)),
    run: (c, i) => createCustomTag(c.principal, { itemId: i.id, categoryHandle: 'diet', key: 'Gluten free option' }),
  }),
  row({
    op: 'linkCustomTag',
    setup: async (c) => {
      await place(c);
      const [one, two] = [await item(c), await item(c)];
      return { two, tag: await createCustomTag(c.principal, { itemId: one.id, categoryHandle: 'diet', key: 'Vegan' }) };
    },
    run: (c, s) => linkCustomTag(c.principal, { itemId: s.two.id, customTagId: s.tag.id }),
  }),
  row({
    op: 'unlinkCustomTag',
    setup: async (c) => {
      await place(c);
      const i = await item(c);
      return { i, tag: await createCustomTag(c.principal, { itemId: i.id, categoryHandle: 'diet', key: 'Vegan' }) };
    },
    run: (c, s) => unlinkCustomTag(c.principal, { itemId: s.i.id, customTagId: s.tag.id }),
  }),
  row({ op: 'createVariantGroup', setup: (c) => place(c), run: (c) => variantGroup(c) }),
  row({
    op: 'updateVariantGroup',
    setup: async (c) => (await place(c), variantGroup(c)),
    run: (c, g) => updateVariantGroup(c.principal, String(g.id), { name: 'Two sides', min: 1 }),
  }),
  row({
    op: 'deleteVariantGroup',
    variant: 'its linked variant lets go of the item',
    setup: (c) => linkedGroup(c),
    run: (c, s) => deleteVariantGroup(c.principal, String(s.group.id)),
  }),
  row({
    op: 'createVariant',
    variant: 'linked to an item',
    setup: async (c) => (await place(c), { group: await variantGroup(c), item: await item(c) }),
    run: (c, s) => createVariant(c.principal, String(s.group.id), { name: 'Cola', itemId: s.item.id }),
  }),
  row({
    op: 'updateVariant',
    setup: async (c) => (await place(c), variantGroup(c)),
    run: (c, g) => updateVariant(c.principal, String(g.variants![1]!.id), { price: 700 }),
  }),
  row({
    op: 'deleteVariant',
    variant: 'a linked one',
    setup: (c) => linkedGroup(c),
    run: (c, s) => deleteVariant(c.principal, s.variantId),
  }),
  row({
    op: 'linkVariant',
    setup: async (c) => (await place(c), { group: await variantGroup(c), item: await item(c) }),
    run: (c, s) => linkVariant(c.principal, String(s.group.variants![0]!.id), { itemId: s.item.id }),
  }),
  row({ op: 'unlinkVariant', setup: (c) => linkedGroup(c), run: (c, s) => unlinkVariant(c.principal, s.variantId) }),

  row({
    op: 'createSchedule',
    variant: "an item's, with rules",
    setup: async (c) => (await place(c), item(c)),
    run: (c, i) =>
      createSchedule(c.principal, {
        locationId: LOCATION,
        entityType: 'item',
        entityId: String(i.id),
        name: 'Lunch',
        rules: weekendNights,
      }),
  }),
  row({
    op: 'updateSchedule',
    variant: "a location's hours (location.hours.updated too)",
    setup: (c) => schedule(c, { entityType: 'location_hours', entityId: String(LOCATION) }),
    run: (c, s) => updateSchedule(c.principal, String(s.id), { priority: 4, isActive: false }),
  }),
  row({ op: 'deleteSchedule', setup: (c) => schedule(c), run: (c, s) => deleteSchedule(c.principal, String(s.id)) }),
  row({
    op: 'replaceScheduleRules',
    variant: 'two rules by three: refs added and deleted',
    setup: (c) => schedule(c),
    run: (c, s) => replaceScheduleRules(c.principal, String(s.id), { rules: weekendNights }),
  }),
  row({
    op: 'addScheduleRule',
    setup: (c) => schedule(c),
    run: (c, s) =>
      addScheduleRule(c.principal, String(s.id), {
        ruleType: 'date_range',
        startDate: '2030-06-01',
        endDate: '2030-08-31',
        startTime: '09:00',
        endTime: '15:00',
      }),
  }),
  row({
    op: 'updateScheduleRule',
    setup: (c) => schedule(c),
    run: (c, s) => updateScheduleRule(c.principal, String(s.rules[0]!.id), { endTime: '15:00', isAvailable: false }),
  }),
  row({
    op: 'deleteScheduleRule',
    setup: (c) => schedule(c),
    run: (c, s) => deleteScheduleRule(c.principal, String(s.rules[1]!.id)),
  }),

  // setup
  row({
    op: 'createLocation',
    setup: async () => undefined,
    run: (c) => createLocation(c.principal, { name: 'New bistro', timezone: 'Europe/Stockholm', operatingHours: {} }),
  }),
  row({
    op: 'updateLocation',
    variant: 'with new hours (two events)',
    setup: (c) => place(c),
    run: (c) =>
      updateLocation(c.principal, LOCATION, {
        name: 'Renamed',
        operatingHours: { monday: [{ open: '11:00', close: '14:00' }] },
      }),
  }),
  row({
    op: 'deleteLocation',
    setup: (c) =>
      createLocation(c.principal, { name: 'Empty bistro', timezone: 'Europe/Stockholm', operatingHours: {} }, LOCATION),
    run: (c) => deleteLocation(c.principal, LOCATION),
  }),
  row({
    op: 'createTable',
    variant: 'combinable with another',
    setup: (c) => place(c),
    run: (c, p) =>
      createTable(c.principal, LOCATION, {
        name: 'C9',
        minCapacity: 2,
        maxCapacity: 4,
        combinableWith: [p.tableIds[0]!],
      }),
  }),
  row({
    op: 'updateTable',
    variant: 'renamed and combined',
    setup: (c) => place(c),
    run: (c, p) =>
      updateTable(c.principal, LOCATION, p.tableIds[0]!, { name: 'Window', combinableWith: [p.tableIds[1]!] }),
  }),
  row({
    op: 'deleteTable',
    variant: 'its partner drops it',
    setup: async (c) => {
      const p = await place(c);
      return createTable(c.principal, LOCATION, {
        name: 'C9',
        minCapacity: 2,
        maxCapacity: 4,
        combinableWith: [p.tableIds[0]!],
      });
    },
    run: (c, t) => deleteTable(c.principal, LOCATION, t.id),
  }),
  row({
    op: 'createBookingGroup',
    setup: (c) => place(c),
    run: (c, p) => createBookingGroup(c.principal, LOCATION, { name: 'Terrace', tableIds: [p.tableIds[0]!] }),
  }),
  row({
    op: 'updateBookingGroup',
    setup: async (c) => {
      const p = await place(c);
      return { p, g: await createBookingGroup(c.principal, LOCATION, { name: 'Terrace', tableIds: [p.tableIds[0]!] }) };
    },
    run: (c, s) => updateBookingGroup(c.principal, LOCATION, s.g.id, { name: 'Garden', tableIds: [s.p.tableIds[1]!] }),
  }),
  row({
    op: 'deleteBookingGroup',
    setup: async (c) =>
      createBookingGroup(c.principal, LOCATION, { name: 'Terrace', tableIds: [(await place(c)).tableIds[0]!] }),
    run: (c, g) => deleteBookingGroup(c.principal, LOCATION, g.id),
  }),

  // webhooks
  row({ op: 'createWebhookSubscription', setup: async () => undefined, run: (c) => subscription(c) }),
  row({
    op: 'updateWebhookSubscription',
    setup: (c) => subscription(c),
    run: (c, s) => updateSubscription(c.principal, s.id, { events: ['booking.created'], active: false }),
  }),
  row({
    op: 'deleteWebhookSubscription',
    setup: (c) => subscription(c),
    run: (c, s) => deleteSubscription(c.principal, s.id),
  }),
  row({
    op: 'rotateWebhookSecret',
    setup: (c) => subscription(c),
    run: (c, s) => rotateSubscriptionSecret(c.principal, s.id),
  }),
  row({
    op: 'testWebhookSubscription',
    setup: (c) => subscription(c),
    run: (c, s) => sendTestEvent(c.principal, s.id),
  }),
  row({
    op: 'retryWebhookDelivery',
    setup: async (c) => {
      const s = await subscription(c);
      const event = newEvent(c.companyId, 'coursing.created', randomUUID(), { title: 'Starters' });
      const d = {
        ...newDelivery(s.id, event.payload, new Date().toISOString()),
        status: 'failed' as const,
        attempts: 3,
      };
      await deliveries.create(c.companyId, d);
      return d;
    },
    run: (c, d) => retryDelivery(c.principal, d.id),
  }),

  // tabs, purchases, reviews (the seated booking's bill: 2 × 9.00 + 29.00 = 47.00)
  row({
    op: 'createTabPurchase',
    variant: 'pays part of the bill: the purchase, its reference, the tab, the day totals',
    setup: (c) => seated(c),
    run: (c, s) =>
      createPurchase(c.principal, s.booking.tab.id, {
        amount: 2000,
        paymentProvider: 'card',
        tip: 300,
        providerReference: 'pi_crash',
      }),
  }),
  row({
    op: 'createTabPurchase',
    variant: 'pays the rest by items: the tab closes, its table is released, the booking records it',
    setup: async (c) => {
      const s = await seated(c);
      await createPurchase(c.principal, s.booking.tab.id, { amount: 900, paymentProvider: 'card' });
      return s;
    },
    run: (c, s) =>
      createPurchase(c.principal, s.booking.tab.id, {
        items: [
          { name: 'Soup', unitPrice: 900, quantity: 1, vatRate: 12 },
          { name: 'Steak', unitPrice: 2900, quantity: 1, vatRate: 12 },
        ],
        paymentProvider: 'swish',
      }),
  }),
  row({
    op: 'createTabPurchase',
    variant: "pays a booking's deposit on its pre-arrival tab",
    setup: async (c) => booking(c, await place(c), { depositAmountCents: 5000 }),
    run: (c, b) => createPurchase(c.principal, b.tab.id, { amount: 5000, paymentProvider: 'card' }),
  }),
  row({
    op: 'markPurchasePickedUp',
    setup: async (c) =>
      createPurchase(c.principal, (await seated(c)).booking.tab.id, { amount: 900, paymentProvider: 'card' }),
    run: (c, p) => markPickedUp(c.principal, p.id),
  }),
  row({
    op: 'addTabAnonymousMember',
    setup: (c) => seated(c),
    run: (c, s) => addAnonymousMember(c.principal, s.booking.tab.id),
  }),
  row({
    op: 'closeAllTabs',
    variant: "a seated booking's tab: closed, its table released",
    setup: (c) => seated(c),
    run: (c) => closeAllTabs(c.principal, undefined),
  }),
  row({
    op: 'createReview',
    setup: async (c) =>
      createPurchase(c.principal, (await seated(c)).booking.tab.id, { amount: 900, paymentProvider: 'card' }),
    run: (c, p) => createReview(c.principal, { purchaseIntentId: p.id, rating: 4, reviewTags: ['quick'] }),
  }),
  // alerts and printing
  row({ op: 'acknowledgeAlert', setup: (c) => alertOf(c), run: (c, a) => acknowledgeAlert(c.principal, a.id) }),
  row({
    op: 'resolveAlert',
    variant: 'an acknowledged one',
    setup: async (c) => acknowledgeAlert(c.principal, (await alertOf(c)).id),
    run: (c, a) => resolveAlert(c.principal, a.id),
  }),
  row({ op: 'createPrinterGroup', setup: (c) => place(c), run: (c) => printerGroup(c) }),
  row({
    op: 'updatePrinterGroup',
    setup: async (c) => (await place(c), printerGroup(c)),
    run: (c, g) => updatePrinterGroup(c.principal, g.id, { name: 'Kitchen pass', width: 48 }),
  }),
  row({
    op: 'deletePrinterGroup',
    setup: async (c) => (await place(c), printerGroup(c)),
    run: (c, g) => deletePrinterGroup(c.principal, g.id),
  }),
  row({
    op: 'putTerminal',
    variant: 'creates one naming a group',
    setup: async (c) => (await place(c), printerGroup(c)),
    run: (c, g) => putTerminal(c.principal, TERMINAL, { locationId: LOCATION, name: 'Bar 1', printerGroupId: g.id }),
  }),
  row({
    op: 'putTerminal',
    variant: 'replaces one, moving it to another group',
    setup: async (c) => {
      await place(c);
      const [one, two] = [await printerGroup(c), await printerGroup(c)];
      await putTerminal(c.principal, TERMINAL, { locationId: LOCATION, name: 'Bar 1', printerGroupId: one.id });
      return two;
    },
    run: (c, g) => putTerminal(c.principal, TERMINAL, { locationId: LOCATION, name: 'Bar 2', printerGroupId: g.id }),
  }),
  row({
    op: 'deleteTerminal',
    setup: async (c) => (await place(c), terminalOf(c)),
    run: (c, t) => deleteTerminal(c.principal, t.id),
  }),
  row({
    op: 'terminalPreCheck',
    setup: async (c) => ({ tabId: (await seated(c)).booking.tab.id, t: await terminalOf(c) }),
    run: (c, s) => preCheckOf(c, s.t.id, s.tabId),
  }),
  row({
    op: 'reportPrintJob',
    variant: 'printed',
    setup: (c) => queuedJob(c),
    run: (c, j) => reportPrintJob(c.principal, j.printerGroupId, j.id, { status: 'printed' }),
  }),
  row({
    op: 'reportPrintJob',
    variant: 'failed: raises an alert',
    setup: (c) => queuedJob(c),
    run: (c, j) => reportPrintJob(c.principal, j.printerGroupId, j.id, { status: 'failed', error: 'Out of paper' }),
  }),
  row({
    op: 'patchReportEmails',
    variant: 'the first list',
    setup: (c) => place(c),
    run: (c) =>
      patchReportEmails(c.principal, LOCATION, {
        emails: ['books@example.com', 'Books@example.com', 'chef@example.com'],
      }),
  }),
  row({
    op: 'patchReportEmails',
    variant: 'replaces the list',
    setup: async (c) => (await place(c), patchReportEmails(c.principal, LOCATION, { emails: ['books@example.com'] })),
    run: (c) => patchReportEmails(c.principal, LOCATION, { emails: ['chef@example.com'] }),
  }),
  row({
    op: 'putExportSettings',
    variant: 'creates',
    setup: (c) => place(c),
    run: (c) => putExportSettings(c.principal, exportSettingsBody),
  }),
  row({
    op: 'putExportSettings',
    variant: 'replaces',
    setup: async (c) => (await place(c), putExportSettings(c.principal, exportSettingsBody)),
    run: (c) =>
      putExportSettings(c.principal, { ...exportSettingsBody, exportType: 'gbat10', splitByCostCenter: true }),
  }),
];

/** Runs the row's setup in a new company; answers the company and what the setup made. */
async function prepared(r: Row<unknown>): Promise<{ c: Company; s: unknown }> {
  const c = newCompany();
  return { c, s: await r.setup(c) };
}

/** Mode A at every write of the operation in turn; answers the clean run (the first that passed every crash point). */
async function crashEachWrite(r: Row<unknown>, c: Company, s: unknown) {
  for (let at = 1; ; at++) {
    releaseIdBlocks(); // so a create that takes an id reserves a block, and that write is crashed too
    const before = await stateOf(c);
    const run = await crash.under({ kind: 'fail', at }, () => r.run(c, s));
    const after = await stateOf(c);
    if ('error' in run && run.error !== undefined) {
      expect(run.error, `crash at write ${at}`).toBeInstanceOf(InjectedCrash);
      expect(after, `crash at write ${at} (${run.writes[at - 1]?.command}) left a change`).toEqual(before);
      continue;
    }
    expect(at, 'the operation wrote nothing').toBeGreaterThan(1);
    expect(run.writes).toHaveLength(at - 1);
    return { result: run.result, writes: run.writes, change: changeShape(before, after) };
  }
}

/** Each write was sent twice (its first answer lost), a transaction both times with one ClientRequestToken. */
function expectRetriedOnce(writes: SentWrite[]): void {
  for (const w of writes) {
    expect(w.attempts, w.command).toBe(2);
    if (w.command === 'TransactWriteItemsCommand') {
      expect(w.tokens[0]).toEqual(expect.any(String));
      expect(w.tokens[1]).toBe(w.tokens[0]);
    }
  }
}

beforeAll(() => {
  crash = new CrashClient();
  setDb(crash.client);
});
afterAll(() => setDb(undefined));

const name = (r: Row<unknown>) => (r.variant ? `${r.op} (${r.variant})` : r.op);

describe('every write operation of the route table has a row', () => {
  it('POST, PUT, PATCH and DELETE, the GET that stores default settings and the one that expires a lapsed waitlist offer', () => {
    const writing = routes.filter((r) => r.method !== 'GET').map((r) => r.operationId as string);
    expect([...new Set(rows.map((r) => r.op))].sort()).toEqual(
      [...writing, 'getBookingSettings', 'getWaitlistByCode'].sort(),
    );
  });
});

describe.each(rows.map((r) => [name(r), r] as const))('%s', (_name, r) => {
  it('A: a failed write at any point leaves every item of the company as it was; B: lost answers change it exactly as a clean run', async () => {
    const a = await prepared(r);
    const clean = await crashEachWrite(r, a.c, a.s);
    expect(clean.change.length, 'the clean run changed nothing').toBeGreaterThan(0);

    const b = await prepared(r);
    releaseIdBlocks();
    const before = await stateOf(b.c);
    const run = await crash.under({ kind: 'loseAnswer' }, () => r.run(b.c, b.s));
    expect(run.error, 'the operation failed after its write committed').toBeUndefined();
    expect(changeShape(before, await stateOf(b.c))).toEqual(clean.change);
    expect(run.writes.map((w) => w.command)).toEqual(clean.writes.map((w) => w.command));
    expectRetriedOnce(run.writes);
    expect(answerShape(run.result)).toEqual(answerShape(clean.result));
  });
});

describe('the harness sees a doubled write', () => {
  // Mode B passes above because the SDK sends a transaction's retry under the token of the first
  // attempt, and DynamoDB (Local too) answers a repeated token with the first outcome instead of
  // writing again. The same retry under a new token is a second write: the checks above must see it.
  const doubled = ['setPreOrder', 'createTabOrder', 'createBooking', 'createLocation', 'deleteTable'];
  it.each(doubled)('%s, its retry sent under a new token: refused, or changed twice', async (op) => {
    const r = rows.find((x) => x.op === op)!;
    const a = await prepared(r);
    const before = await stateOf(a.c);
    const clean = await crash.under({ kind: 'off' }, () => r.run(a.c, a.s));
    const change = changeShape(before, await stateOf(a.c));

    const b = await prepared(r);
    const start = await stateOf(b.c);
    const run = await crash.under({ kind: 'loseAnswer', newToken: true }, () => r.run(b.c, b.s));
    expect(run.writes.at(-1)!.tokens[1]).not.toBe(run.writes.at(-1)!.tokens[0]);
    const same =
      run.error === undefined &&
      JSON.stringify(changeShape(start, await stateOf(b.c))) === JSON.stringify(change) &&
      JSON.stringify(answerShape(run.result)) === JSON.stringify(answerShape(clean.result));
    expect(same, String(run.error ?? 'no error')).toBe(false);
  });
});

describe('what mode B leaves outside a company', () => {
  it('a lost answer of an id reservation skips the block it reserved: a gap in the ids, which ids may have', async () => {
    // A kind no other file reserves, so the counter moves only here.
    const counter = () =>
      snapshot([{ pk: 'SEQ', sk: 'variant' }]).then((items) => Number([...items.values()][0]?.v ?? 0));
    releaseIdBlocks();
    const start = await counter();
    const run = await crash.under({ kind: 'loseAnswer' }, () => nextId('variant'));
    expect(run.writes).toEqual([expect.objectContaining({ command: 'UpdateItemCommand', attempts: 2 })]);
    expect(await counter()).toBe(start + 2 * ID_BLOCK_SIZE);
    expect(run.result).toBe(start + ID_BLOCK_SIZE + 1);
  });
});

// ---------------------------------------------------------------------------------------------
// The webhook pipeline: its writes are single items (a delivery made if absent, a claim with a
// lease) and the transaction that records an attempt. It recovers from a crash by running again
// (the stream and the queue redeliver; a claim's lease runs out): so here mode A is a crash at
// each write followed by that second run, which must end as a clean run does.

let server: Server;
let receiverUrl: string;
let status = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  receiverUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

/** A company with `n` subscriptions to every event (at the receiver), made a minute ago. */
async function subscribed(n: number) {
  const c = newCompany();
  const subs = [];
  for (let i = 0; i < n; i++) subs.push(await createSubscription(c.principal, { url: receiverUrl, events: ['*'] }));
  return { c, subs };
}

/** A delivery due now to the company's first subscription (as the dispatcher makes it). */
async function dueDelivery(c: Company, subscriptionId: string, extra: Record<string, unknown> = {}) {
  const event = newEvent(c.companyId, 'coursing.created', randomUUID(), { title: 'Starters' });
  const d = { ...newDelivery(subscriptionId, event.payload, new Date(Date.now() - 1000).toISOString()), ...extra };
  await deliveries.create(c.companyId, d);
  return { companyId: c.companyId, subscriptionId, deliveryId: d.id, round: d.round } satisfies DeliveryRef;
}

const leaseEnd = () => Date.now() + leaseMs(webhookSettings().timeoutMs) + 1000;

interface PipelineRow {
  name: string;
  setup(): Promise<{ c: Company; run: (now?: () => number) => Promise<unknown> }>;
  status: number;
}

const pipeline: PipelineRow[] = [
  {
    name: 'dispatch: a delivery per subscription, made if absent, queued',
    status: 200,
    setup: async () => {
      const { c } = await subscribed(2);
      const event = newEvent(c.companyId, 'coursing.created', randomUUID(), { title: 'Starters' });
      return {
        c,
        run: async () => {
          const queued: DeliveryRef[] = [];
          await dispatch({ kind: 'event', event }, async (refs) => void queued.push(...refs));
          return queued.map((q) => q.round);
        },
      };
    },
  },
  {
    name: 'attempt: delivered',
    status: 200,
    setup: async () => {
      const { c, subs } = await subscribed(1);
      const ref = await dueDelivery(c, subs[0]!.id);
      return { c, run: (now) => attemptDelivery(ref, { now }) };
    },
  },
  {
    name: 'attempt: failed, the next one scheduled',
    status: 500,
    setup: async () => {
      const { c, subs } = await subscribed(1);
      const ref = await dueDelivery(c, subs[0]!.id);
      return { c, run: (now) => attemptDelivery(ref, { now }).then((o) => o.kind) };
    },
  },
  {
    name: 'attempt: the last one failed, dead with an alert',
    status: 500,
    setup: async () => {
      const { c, subs } = await subscribed(1);
      const ref = await dueDelivery(c, subs[0]!.id, { attempts: MAX_ATTEMPTS - 1, status: 'failed' });
      return { c, run: (now) => attemptDelivery(ref, { now }).then((o) => o.kind) };
    },
  },
  {
    name: 'attempt: the subscription is gone, the delivery cancelled',
    status: 200,
    setup: async () => {
      const { c, subs } = await subscribed(1);
      const ref = await dueDelivery(c, subs[0]!.id);
      await deleteSubscription(c.principal, subs[0]!.id);
      return { c, run: (now) => attemptDelivery(ref, { now }) };
    },
  },
];

describe.each(pipeline.map((p) => [p.name, p] as const))('pipeline, %s', (_name, p) => {
  it('A: a crash at any write, then the run the pipeline repeats, ends as a clean run; B: lost answers end as a clean run', async () => {
    status = p.status;
    // The clean run, in a company of its own.
    const clean = await p.setup();
    const cleanBefore = await stateOf(clean.c);
    const cleanRun = await crash.under({ kind: 'off' }, () => clean.run());
    expect(cleanRun.error).toBeUndefined();
    const change = changeShape(cleanBefore, await stateOf(clean.c));
    expect(change.length).toBeGreaterThan(0);

    for (let at = 1; at <= cleanRun.writes.length; at++) {
      const crashed = await p.setup();
      const before = await stateOf(crashed.c);
      const failed = await crash.under({ kind: 'fail', at }, () => crashed.run());
      expect(failed.error, `crash at write ${at}`).toBeInstanceOf(InjectedCrash);
      // Redelivered after the lease of a claim the crash left behind has run out.
      const again = await crash.under({ kind: 'off' }, () => crashed.run(leaseEnd));
      expect(again.error).toBeUndefined();
      expect(changeShape(before, await stateOf(crashed.c)), `crash at write ${at}, then again`).toEqual(change);
    }

    const lost = await p.setup();
    const before = await stateOf(lost.c);
    const run = await crash.under({ kind: 'loseAnswer' }, () => lost.run());
    expect(run.error).toBeUndefined();
    expect(run.result).toEqual(cleanRun.result);
    expect(changeShape(before, await stateOf(lost.c))).toEqual(change);
    expectRetriedOnce(run.writes);
  });
});

describe('the fingerprint misses nothing', () => {
  it("every item of the file's companies in the table is one whose key the client recorded", async () => {
    const companies = new Set(crash.companies());
    const recorded = new Set(crash.companies().flatMap((id) => crash.keysOf(id).map((k) => `${k.pk}\u0000${k.sk}`)));
    const mine = (i: Record<string, unknown>) =>
      companies.has(Number(i.companyId)) || companies.has(Number(/^C#(\d+)/.exec(String(i.pk))?.[1]));
    const found: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
      found.push(...(out.Items ?? []).filter(mine));
      start = out.LastEvaluatedKey;
    } while (start);
    expect(found.length).toBeGreaterThan(100);
    expect(found.filter((i) => !recorded.has(`${i.pk}\u0000${i.sk}`)).map((i) => `${i.pk} ${i.sk}`)).toEqual([]);
  });
});
