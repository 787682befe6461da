/**
 * The tabs' own operations (docs/api.md, docs/purchases.md#tabs): add anonymous members, and close
 * every open tab in scope. Closing a tab of a booking releases its table (the claim of
 * openTabs.ts) in the booking's transaction; a tab opened without a booking claims no table.
 */
import type { Principal } from '../../auth/principal';
import { bookings } from '../../data/bookings';
import { writeBooking } from '../../data/bookingWrite';
import { locations } from '../../data/locations';
import { outboxStep } from '../../data/outbox';
import { anonymousMembersStep, tabs, tabSteps, type Tab, type TabWrite } from '../../data/tabs';
import { transact } from '../../data/transact';
import { AppError, conflict } from '../../errors';
import { newEvent } from '../../events/catalog';
import { assertLocationAllowed, existingLocation, namedLocation } from '../access';
import type { TabDetailsView } from '../../schemas/purchases';
import { billByRate, billVatRows } from './bill';
import { closingOf, readBill, shownTab, tabOf } from './purchases';

export type TabDetails = TabDetailsView;

/**
 * GET /tabs/{tabId} (docs/purchases.md, “Read a tab”): the tab, the booking it serves and the
 * tables, its bill (total, paid, due, and per VAT rate), its orders and its purchases. 404 for an
 * unknown tab (another company's included), 403 outside the key's locations, as every tab
 * operation. Reads the tab, then its orders, purchases and booking together (readBill).
 */
export async function getTab(principal: Principal, tabId: string): Promise<TabDetails> {
  const tab = await tabOf(principal, tabId);
  const read = await readBill(principal.companyId, tab, true);
  const paidCents = tab.paidCents ?? 0;
  const booking = read.booking && {
    id: read.booking.id,
    status: read.booking.status,
    guestName: read.booking.guestName,
    startsAt: read.booking.startsAt,
    endsAt: read.booking.endsAt,
    tableIds: read.booking.tableIds,
  };
  return {
    ...shownTab(tab),
    booking: booking ?? null,
    tableIds: [...new Set([...(tab.tableId ? [tab.tableId] : []), ...(booking?.tableIds ?? [])])],
    bill: {
      totalCents: read.billCents,
      paidCents,
      dueCents: read.billCents - paidCents,
      vatRows: billVatRows(billByRate(read.sources), read.purchases),
    },
    orders: read.orders.map((o) => ({ ...o, extendedWaitingTime: o.extendedWaitingTime ?? null })),
    purchases: read.purchases,
  };
}

/**
 * An anonymous guest joins the tab (a guest without an account, counted on the tab:
 * `anonymousMembers`); 409 on a closed tab. Answers the tab; `tab.updated` carries the count.
 */
export async function addAnonymousMember(principal: Principal, tabId: string): Promise<Required<Tab>> {
  const { companyId } = principal;
  const prev = await tabOf(principal, tabId);
  if (prev.status === 'closed') throw conflict(`Tab ${tabId} is closed`);
  const now = new Date().toISOString();
  const next = shownTab({
    ...prev,
    anonymousMembers: (prev.anonymousMembers ?? 0) + 1,
    updatedAt: now,
    version: prev.version + 1,
  });
  await transact([
    anonymousMembersStep(companyId, tabId, 1, now),
    outboxStep(newEvent(companyId, 'tab.updated', tabId, { ...next }, { anonymousMembers: next.anonymousMembers })),
  ]);
  return next;
}

/** At most this many tabs are closed by one call (each is its own transaction); `more` says when others are left. */
const MAX_CLOSE_PER_CALL = 100;
/** Tabs closed at once (in parallel) within a call. */
const CONCURRENCY = 10;

export interface CloseAllResult {
  /** The locations the call looked at. */
  locationIds: number[];
  closed: number;
  /** Open tabs that changed while being closed (paid, unseated, closed by another call): left as they are. */
  skipped: number;
  /** More open tabs were left in scope than one call closes: call again. */
  more: boolean;
}

/** The locations close-all looks at: the header's, else every location the credential may reach. */
async function scope(principal: Principal, header: string | undefined): Promise<number[]> {
  const named = namedLocation(principal, undefined, header);
  if (named !== undefined) return [(await existingLocation(principal.companyId, named)).id];
  if (principal.locationIds) return principal.locationIds;
  const ids: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await locations.list(principal.companyId, { page: 1, limit: 100, ...(cursor ? { cursor } : {}) });
    ids.push(...page.items.map((l) => l.id));
    cursor = page.pagination.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

/** Closes one open tab (not paid: closed by hand); with a booking, in the booking's transaction, releasing its table. */
async function closeTab(companyId: number, tab: Tab, now: string): Promise<void> {
  const close: TabWrite = { id: tab.id, expectedStatus: 'open', set: { status: 'closed', closedAt: now } };
  const event = newEvent(
    companyId,
    'tab.closed',
    tab.id,
    {
      ...shownTab({ ...tab, status: 'closed', closedAt: now, updatedAt: now, version: tab.version + 1 }),
      reason: 'close_all',
    },
    { status: 'closed', closedAt: now },
  );
  const booking = tab.bookingId ? await bookings.get(companyId, tab.bookingId) : undefined;
  if (booking?.tabs.some((t) => t.id === tab.id && t.status === 'open')) {
    const closing = closingOf(companyId, booking, tab.id, now);
    await writeBooking(companyId, { ...closing, tabs: [close], events: [...closing.events, event] });
  } else {
    await transact([...tabSteps(companyId, tab.locationId, [close], now), outboxStep(event)]);
  }
}

/**
 * Closes every open tab in scope (the X-Location-Id header's location, else every location the
 * credential may reach): at most MAX_CLOSE_PER_CALL per call, oldest opened first; `more` says
 * to call again. A tab that changes meanwhile is skipped (counted), never half closed.
 */
export async function closeAllTabs(principal: Principal, header: string | undefined): Promise<CloseAllResult> {
  const { companyId } = principal;
  const locationIds = await scope(principal, header);
  let closed = 0;
  let skipped = 0;
  let more = false;
  for (const locationId of locationIds) {
    assertLocationAllowed(principal, locationId);
    const budget = MAX_CLOSE_PER_CALL - closed - skipped;
    if (budget <= 0) {
      more = true;
      break;
    }
    const page = await tabs.listOpen(companyId, locationId, { page: 1, limit: budget });
    if (page.pagination.nextCursor) more = true;
    const now = new Date().toISOString();
    for (let i = 0; i < page.items.length; i += CONCURRENCY) {
      const outcomes = await Promise.allSettled(
        page.items.slice(i, i + CONCURRENCY).map((t) => closeTab(companyId, t, now)),
      );
      for (const o of outcomes) {
        if (o.status === 'fulfilled') closed++;
        else if (o.reason instanceof AppError && o.reason.code === 'CONFLICT') skipped++;
        else throw o.reason;
      }
    }
  }
  return { locationIds, closed, skipped, more };
}
