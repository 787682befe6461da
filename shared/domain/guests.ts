/** Guest users (spec 2.11): people who book without an account, one per email or phone per company. */
import type { Principal } from '../auth/principal';
import { guests, type Guest, type GuestHistory } from '../data/guests';
import { nextId } from '../data/ids';
import { validationFailed, type FieldProblem } from '../errors';
import { newEvent } from '../events/catalog';
import { Page } from '../page';
import type { CreateGuestBody, SearchGuestsQuery } from '../schemas/guests';
import { assertLocationAllowed } from './access';
import { normalizeEmail, parsePhone, searchPrefix, searchTokens } from './contact';

/** A search result: the guest, with its history at the location when the search names one. */
export type GuestMatch = Guest & { bookingHistory?: GuestHistory };

export type GuestContact = Pick<Guest, 'name' | 'email' | 'phone'>;

/** The body as stored: name trimmed, email lower-cased, phone E.164; 400 naming each problem. */
export function normalizeGuestInput(input: CreateGuestBody): GuestContact {
  const problems: FieldProblem[] = [];
  const phone = input.phone === undefined ? undefined : parsePhone(input.phone);
  if (phone && !phone.ok) problems.push({ path: '/phone', message: phone.problem });
  if (input.email === undefined && input.phone === undefined) {
    problems.push({ path: '/email', message: 'email or phone is required' }, { path: '/phone', message: 'email or phone is required' });
  }
  if (problems.length) throw validationFailed('The guest is not valid', problems);
  return {
    name: input.name.trim().replace(/\s+/g, ' '),
    email: input.email === undefined ? null : normalizeEmail(input.email),
    phone: phone?.ok ? phone.e164 : null,
  };
}

/**
 * Creates a guest, or returns the company's guest that already has this email or phone (the
 * email's guest first): a repeat never makes a duplicate and never changes the stored guest.
 * `guest.created` is recorded only when a guest was made.
 */
export async function createGuest(principal: Principal, input: CreateGuestBody): Promise<Guest> {
  const contact = normalizeGuestInput(input);
  const now = new Date().toISOString();
  const guest: Guest = { id: await nextId('user'), ...contact, createdAt: now, updatedAt: now };
  const event = newEvent(principal.companyId, 'guest.created', String(guest.id), { ...guest });
  return guests.add(principal.companyId, guest, searchTokens(guest), event);
}

/** Guests whose email, phone or a name word starts with `q`; with `locationId`, their history there. */
export async function searchGuests(principal: Principal, query: SearchGuestsQuery): Promise<Page<GuestMatch>> {
  const prefix = searchPrefix(query.q);
  if (prefix === undefined) {
    throw validationFailed('The query is not valid', [{ path: '/q', message: 'must contain at least 2 letters or digits' }]);
  }
  if (query.locationId !== undefined) assertLocationAllowed(principal, query.locationId);
  const page = await guests.search(principal.companyId, prefix, query);
  if (query.locationId === undefined) return page;
  const history = await guests.historyAt(principal.companyId, query.locationId, page.items.map((g) => g.id));
  return new Page(
    page.items.map((g) => ({ ...g, bookingHistory: history.get(g.id)! })),
    page.pagination,
  );
}
