/** Guest users (docs/guests.md): people who book without an account, one per email or phone per company. */
import type { Principal } from '../auth/principal';
import { guests, type Guest, type GuestHistory } from '../data/guests';
import { nextId } from '../data/ids';
import { validationFailed, type FieldProblem } from '../errors';
import { newEvent } from '../events/catalog';
import { Page } from '../page';
import type { CreateGuestBody, SearchGuestsQuery } from '../schemas/guests';
import { existingLocation, namedLocation } from './access';
import { isLocalPhone, normalizeEmail, parsePhone, searchPrefix, searchTokens } from './contact';

/** A search result: the guest, with its history at the location when the search names one. */
export type GuestMatch = Guest & { bookingHistory?: GuestHistory };

export type GuestContact = Pick<Guest, 'name' | 'email' | 'phone'>;

/** What a create answers a caller who could not read the existing guest it found: its id alone. */
export type GuestRef = Pick<Guest, 'id'>;

/** The permission that reads guests (the search's), and bookings with their guest details. */
const GUEST_READ = 'bookings.read';

/**
 * The body as stored: name trimmed (null when absent), email lower-cased, phone E.164 (a local
 * number read in `country`, the location's); 400 naming each problem.
 */
export function normalizeGuestInput(input: CreateGuestBody, country?: string | null): GuestContact {
  const problems: FieldProblem[] = [];
  const phone = input.phone === undefined ? undefined : parsePhone(input.phone, country);
  if (phone && !phone.ok) problems.push({ path: '/phone', message: phone.problem });
  if (input.email === undefined && input.phone === undefined) {
    problems.push(
      { path: '/email', message: 'email or phone is required' },
      { path: '/phone', message: 'email or phone is required' },
    );
  }
  if (problems.length) throw validationFailed('The guest is not valid', problems);
  return {
    name: input.name === undefined ? null : input.name.trim().replace(/\s+/g, ' '),
    email: input.email === undefined ? null : normalizeEmail(input.email),
    phone: phone?.ok ? phone.e164 : null,
  };
}

/** The country of the named location (404 when the company has no such location), null when none is named. */
async function countryAt(companyId: number, locationId: number | undefined): Promise<string | null> {
  return locationId === undefined ? null : ((await existingLocation(companyId, locationId)).country ?? null);
}

/**
 * Whether the caller could read the guest directly: it holds the search's permission and, when
 * it is limited to some locations, the guest has history (a booking) at one of them.
 */
async function canReadGuest(principal: Principal, guestId: number): Promise<boolean> {
  if (!principal.permissions.includes(GUEST_READ)) return false;
  return principal.locationIds === null || guests.hasHistoryAt(principal.companyId, guestId, principal.locationIds);
}

/**
 * Creates a guest, or finds the company's guest that already has this email or phone (the
 * email's guest first): a repeat never makes a duplicate and never changes the stored guest.
 * A repeat answers the existing guest to a caller who could read it directly, and only its id to
 * any other (so that a create cannot be used to look guests up). `guest.created` is recorded only
 * when a guest was made. A phone without its country code is read in the country of the location
 * the X-Location-Id header names.
 */
export async function createGuest(
  principal: Principal,
  input: CreateGuestBody,
  locationHeader?: string,
): Promise<Guest | GuestRef> {
  const locationId = namedLocation(principal, undefined, locationHeader);
  // A location named must be the company's (404), whether or not the phone needs its country.
  const country = await countryAt(principal.companyId, locationId);
  const contact = normalizeGuestInput(
    input,
    input.phone !== undefined && isLocalPhone(input.phone) ? country : undefined,
  );
  const now = new Date().toISOString();
  const guest: Guest = { id: await nextId('user'), ...contact, createdAt: now, updatedAt: now };
  const event = newEvent(principal.companyId, 'guest.created', String(guest.id), { ...guest });
  const found = await guests.add(principal.companyId, guest, searchTokens(guest), event);
  if (found.created || (await canReadGuest(principal, found.guest.id))) return found.guest;
  return { id: found.guest.id };
}

/**
 * Guests whose email, phone or a name word starts with `q`; with a location (`locationId`, else
 * the X-Location-Id header), their history there, and a local phone number read in its country.
 * A credential limited to some locations finds only guests with history at one of them.
 */
export async function searchGuests(
  principal: Principal,
  query: SearchGuestsQuery,
  locationHeader?: string,
): Promise<Page<GuestMatch>> {
  const locationId = namedLocation(principal, query.locationId, locationHeader);
  const local = isLocalPhone(query.q);
  const country = local ? await countryAt(principal.companyId, locationId) : undefined;
  const prefix = searchPrefix(query.q, country);
  if (prefix === undefined) {
    throw validationFailed('The query is not valid', [
      { path: '/q', message: 'must contain at least 2 letters or digits' },
    ]);
  }
  const page = await guests.search(principal.companyId, prefix, query, principal.locationIds ?? undefined);
  if (locationId === undefined) return page;
  const history = await guests.historyAt(
    principal.companyId,
    locationId,
    page.items.map((g) => g.id),
  );
  return new Page(
    page.items.map((g) => ({ ...g, bookingHistory: history.get(g.id)! })),
    page.pagination,
  );
}
