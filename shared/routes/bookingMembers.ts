import * as members from '../schemas/bookingMembers';
import { BookingPath, CodePath } from '../schemas/bookings';
import { row } from './route';

const area = 'bookings';
const byId = '/api/v1/bookings/{id}/members';
/** The paths continue the lifecycle's `{id}` and `{code}` paths, with their schemas. */
const byCode = '/api/v1/bookings/by-code/{code}/members';
const dir = 'functions/booking-members';

export const bookingMembersRoutes = [
  row({
    operationId: 'listBookingMembers',
    method: 'GET',
    path: byId,
    permission: 'bookings.read',
    handler: `${dir}/list.ts`,
    area,
    schemas: { path: BookingPath, query: members.ListBookingMembersQuery, response: members.BookingMemberListView },
  }),
  row({
    operationId: 'addBookingMember',
    method: 'POST',
    path: byId,
    permission: 'bookings.manage',
    handler: `${dir}/add.ts`,
    area,
    schemas: { path: BookingPath, body: members.AddBookingMemberBody, response: members.BookingMemberView },
  }),
  row({
    operationId: 'updateBookingMember',
    method: 'PATCH',
    path: `${byId}/{memberId}`,
    permission: 'bookings.manage',
    handler: `${dir}/update.ts`,
    area,
    schemas: {
      path: members.BookingMemberPath,
      body: members.UpdateBookingMemberBody,
      response: members.BookingMemberView,
    },
  }),
  row({
    operationId: 'listBookingMembersByCode',
    method: 'GET',
    path: byCode,
    permission: null,
    byCode: true,
    handler: `${dir}/list-by-code.ts`,
    area,
    schemas: { path: CodePath, response: members.PublicMemberListView },
  }),
  row({
    operationId: 'addBookingMemberByCode',
    method: 'POST',
    path: byCode,
    permission: null,
    byCode: true,
    handler: `${dir}/add-by-code.ts`,
    area,
    schemas: { path: CodePath, body: members.AddMemberByCodeBody, response: members.RepliedMemberView },
  }),
  row({
    operationId: 'rsvpBooking',
    method: 'POST',
    path: '/api/v1/bookings/rsvp',
    permission: null,
    byCode: true,
    handler: `${dir}/rsvp.ts`,
    area,
    schemas: { body: members.RsvpBody, response: members.RepliedMemberView },
  }),
] as const;
