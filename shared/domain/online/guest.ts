/**
 * Online booking (docs/online-booking.md): the operations a publishable key calls from a guest's
 * browser. Each is the staff operation underneath, held to what a guest may send and see: the
 * location's own rules decide (advance window, party sizes, confirmation mode, the per-guest cap),
 * availability is the one staff see (so a time offered can be booked, docs/availability.md), and
 * answers carry no tables, notes, deposits or other guests.
 */
import type { Principal } from '../../auth/principal';
import { readTogether } from '../../data/batch';
import { bookingSettings } from '../../data/bookingSettings';
import { ContactTaken, guests, type Guest } from '../../data/guests';
import { nextId } from '../../data/ids';
import { locationEntity } from '../../data/locations';
import { notFound, validationFailed } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { Static } from '../../schemas/typebox';
import type {
  OnlineAvailabilityQuery,
  OnlineAvailabilityView,
  OnlineBookingBody,
  OnlineLocationView,
  OnlineWaitlistBody,
} from '../../schemas/online';
import { assertLocationAllowed } from '../access';
import { createBooking } from '../bookings/create';
import { getAvailability } from '../bookings/floor';
import { settingsInForce } from '../bookings/settings';
import { publicBooking, type PublicBooking } from '../bookings/transitions';
import { isLocalPhone, normalizeEmail, parsePhone, searchTokens } from '../contact';
import { joinWaitlist, publicEntry, type PublicWaitlistEntry } from '../waitlist/operations';

/** What every booking made through a publishable key records as its channel. */
const ONLINE_SOURCE = 'online';

/** The full times a guest may join the waitlist for: no table fits the party, or the selling policy keeps the seats. */
const fullReasons = new Set(['no_table_fits', 'selling_policy']);

/** GET /api/v1/online/locations/{locationId}: the location's name, zone, booking hours and the rules a booking keeps. */
export async function onlineLocation(
  principal: Principal,
  locationId: number,
): Promise<Static<typeof OnlineLocationView>> {
  assertLocationAllowed(principal, locationId);
  const read = await readTogether({
    location: locationEntity.read(principal.companyId, locationId),
    settings: bookingSettings.read(principal.companyId, locationId),
  });
  if (!read.location) throw notFound(`Location ${locationId}`);
  const s = settingsInForce(read.settings, locationId);
  return {
    locationId,
    name: read.location.name,
    timezone: read.location.timezone,
    bookingHours: s.operatingHours ?? read.location.operatingHours,
    slotIntervalMinutes: s.slotIntervalMinutes,
    durationMinutes: s.defaultDurationMinutes,
    minPartySize: s.allowedPartySizes.length > 0 ? Math.min(...s.allowedPartySizes) : 1,
    maxPartySize: s.maxPartySize,
    allowedPartySizes: s.allowedPartySizes,
    minAdvanceHours: s.minAdvanceHours,
    maxAdvanceDays: Math.min(s.maxAdvanceDays, s.bookingWindowDays ?? s.maxAdvanceDays),
    confirmationMode: s.confirmationMode,
    cancellationPolicyHours: s.cancellationPolicyHours,
  };
}

/**
 * GET /api/v1/online/locations/{locationId}/availability: staff's availability for the date and
 * party, as times only. A time outside the hours or the advance window is left out; a full one is
 * listed unavailable, with the waitlist.
 */
export async function onlineAvailability(
  principal: Principal,
  locationId: number,
  query: Static<typeof OnlineAvailabilityQuery>,
): Promise<Static<typeof OnlineAvailabilityView>> {
  const found = await getAvailability(principal, locationId, query);
  return {
    locationId,
    date: found.date,
    partySize: found.partySize,
    timezone: found.timezone,
    slots: found.slots
      .filter((s) => s.available || (s.reason !== undefined && fullReasons.has(s.reason)))
      .map((s) => ({ time: s.time, startsAt: s.startsAt, available: s.available, waitlist: !s.available })),
  };
}

/** A guest names an email or a phone (400 naming both). */
function assertContact(input: {
  guestEmail?: string | null | undefined;
  guestPhone?: string | null | undefined;
}): void {
  if (input.guestEmail || input.guestPhone) return;
  const message = 'give an email or a phone, so the restaurant can reach you';
  throw validationFailed('A contact is needed', [
    { path: '/guestEmail', message },
    { path: '/guestPhone', message },
  ]);
}

/**
 * The contact a guest gave, as the company's guests are kept by it: the email, and the phone when
 * it carries its country code (a local number is read in the location's country only as the
 * booking is made, so it finds and makes no guest).
 */
function contactOf(input: { guestEmail?: string | null; guestPhone?: string | null }) {
  const phone = input.guestPhone && !isLocalPhone(input.guestPhone) ? parsePhone(input.guestPhone) : undefined;
  return {
    email: input.guestEmail ? normalizeEmail(input.guestEmail) : null,
    phone: phone?.ok ? phone.e164 : null,
  };
}

/** The id of the company's guest the contact belongs to, if any (none is looked up for a contact without either). */
const knownGuest = (companyId: number, contact: ReturnType<typeof contactOf>) =>
  contact.email || contact.phone ? guests.ownerOf(companyId, contact) : Promise.resolve(undefined);

/**
 * POST /api/v1/online/bookings: the guest's booking, made as staff's create makes one without
 * tables. The booking is the guest's whom the company knows by the contact given, so the location's
 * `maxActiveBookingsPerGuest` counts it; a contact the company does not know yet becomes a guest
 * in the booking's own transaction (a refused booking leaves none). Two first bookings with one new
 * contact at once: the second finds the guest the first made.
 */
export async function createOnlineBooking(
  principal: Principal,
  input: Static<typeof OnlineBookingBody>,
): Promise<PublicBooking> {
  assertLocationAllowed(principal, input.locationId);
  assertContact(input);
  const { companyId } = principal;
  const contact = contactOf(input);
  const known = await knownGuest(companyId, contact);
  const booking = { ...input, bookingSource: ONLINE_SOURCE };
  if (known !== undefined) return publicBooking(await createBooking(principal, { ...booking, primaryUserId: known }));
  if (!contact.email && !contact.phone) return publicBooking(await createBooking(principal, booking));
  const now = new Date().toISOString();
  const guest: Guest = { id: await nextId('user'), name: input.guestName, ...contact, createdAt: now, updatedAt: now };
  const event = newEvent(companyId, 'guest.created', String(guest.id), { ...guest });
  const steps = guests.newSteps(companyId, guest, searchTokens(guest), event);
  try {
    return publicBooking(await createBooking(principal, { ...booking, primaryUserId: guest.id }, { guest, steps }));
  } catch (err) {
    if (!(err instanceof ContactTaken)) throw err;
    const owner = await guests.ownerOf(companyId, contact);
    if (owner === undefined) throw err;
    return publicBooking(await createBooking(principal, { ...booking, primaryUserId: owner }));
  }
}

/** POST /api/v1/online/waitlist: the guest joins the waitlist (a guest the company knows by the contact named on it); the answer carries the entry's code. */
export async function joinOnlineWaitlist(
  principal: Principal,
  input: Static<typeof OnlineWaitlistBody>,
): Promise<PublicWaitlistEntry> {
  assertLocationAllowed(principal, input.locationId);
  assertContact(input);
  const guestId = await knownGuest(principal.companyId, contactOf(input));
  const entry = await joinWaitlist(principal, {
    ...input,
    ...(guestId === undefined ? {} : { primaryUserId: guestId }),
  });
  return publicEntry(entry);
}
