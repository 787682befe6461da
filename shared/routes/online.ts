import { CodePath, LocationPath, PublicBookingView } from '../schemas/bookings';
import {
  OnlineAvailabilityQuery,
  OnlineAvailabilityView,
  OnlineBookingBody,
  OnlineChangeBody,
  OnlineLocationView,
  OnlineWaitlistBody,
} from '../schemas/online';
import { PublicWaitlistEntryView } from '../schemas/waitlist';
import { row } from './route';

const area = 'online';
const base = '/api/v1/online';
const dir = 'functions/online';

/**
 * Online booking (docs/online-booking.md): what a publishable key calls from a guest's browser,
 * and the booking's by-code read, which anyone holding the code may make.
 */
export const onlineRoutes = [
  row({
    operationId: 'getOnlineLocation',
    method: 'GET',
    path: `${base}/locations/{locationId}`,
    permission: 'online_booking.read',
    guest: true,
    handler: `${dir}/location.ts`,
    area,
    schemas: { path: LocationPath, response: OnlineLocationView },
    summary: "A location's public profile",
    description: 'Its name, time zone, booking hours and the rules a booking keeps, for a guest about to book.',
  }),
  row({
    operationId: 'getOnlineAvailability',
    method: 'GET',
    path: `${base}/locations/{locationId}/availability`,
    permission: 'online_booking.read',
    guest: true,
    solver: true,
    handler: `${dir}/availability.ts`,
    area,
    schemas: { path: LocationPath, query: OnlineAvailabilityQuery, response: OnlineAvailabilityView },
    summary: 'The times a guest may book',
    description:
      "The location's availability for the date and party as times only: each time within the booking hours and the advance window, whether it can be booked, and whether a full one takes the waitlist. A time offered is one a booking for it is accepted at (docs/availability.md).",
  }),
  row({
    operationId: 'createOnlineBooking',
    method: 'POST',
    path: `${base}/bookings`,
    permission: 'online_booking.create',
    guest: true,
    solver: true,
    handler: `${dir}/create-booking.ts`,
    area,
    schemas: { body: OnlineBookingBody, response: PublicBookingView },
    summary: "A guest's booking",
    description:
      "Booked as staff's create books without tables, under the location's rules (advance window, party sizes, confirmation mode, the per-guest cap); recorded with `bookingSource` `online`. The answer is the booking as its guest may see it, with the confirmation code that manages it.",
  }),
  row({
    operationId: 'joinOnlineWaitlist',
    method: 'POST',
    path: `${base}/waitlist`,
    permission: 'online_booking.create',
    guest: true,
    handler: `${dir}/join-waitlist.ts`,
    area,
    schemas: { body: OnlineWaitlistBody, response: PublicWaitlistEntryView },
    summary: 'A guest joins the waitlist',
    description: 'For a full time: the answer is the entry as its guest may see it, with the code that manages it.',
  }),
  row({
    operationId: 'getBookingByCode',
    method: 'GET',
    path: '/api/v1/bookings/by-code/{code}',
    permission: null,
    byCode: true,
    handler: `${dir}/get-by-code.ts`,
    area,
    schemas: { path: CodePath, response: PublicBookingView },
    summary: 'A booking by its confirmation code',
    description: 'The booking as its guest may see it: no tables, notes, deposits or contact details.',
  }),
  row({
    operationId: 'changeBookingByCode',
    method: 'PATCH',
    path: '/api/v1/bookings/by-code/{code}',
    permission: null,
    byCode: true,
    solver: true,
    handler: `${dir}/change-by-code.ts`,
    area,
    schemas: { path: CodePath, body: OnlineChangeBody, response: PublicBookingView },
    summary: 'A guest changes their booking by its code',
    description:
      "The date, time or party of a booking still to come, under the location's rules, with the tables automatic assignment chooses for the new stay; up to the location's `cancellationPolicyHours` before the start. The answer is the booking as its guest may see it.",
  }),
] as const;
