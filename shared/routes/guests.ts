import { Type } from '../schemas/typebox';
import * as guests from '../schemas/guests';
import { row } from './route';

export const guestsRoutes = [
  row({
    operationId: 'createGuest',
    method: 'POST',
    path: '/api/v1/users/guests',
    permission: 'bookings.create',
    handler: 'functions/guests/create.ts',
    area: 'guests',
    schemas: { body: guests.CreateGuestBody, response: guests.CreatedGuestView },
  }),
  row({
    operationId: 'searchGuests',
    summary: 'Search guests by email, phone or name',
    method: 'GET',
    path: '/api/v1/users/search',
    permission: 'bookings.read',
    handler: 'functions/guests/search.ts',
    area: 'guests',
    schemas: { query: guests.SearchGuestsQuery, response: Type.Array(guests.GuestMatchView) },
  }),
] as const;
