import * as waitlist from '../schemas/waitlist';
import { row } from './route';

const area = 'waitlist';
const base = '/api/v1/booking-waitlist';
const byCode = `${base}/by-code/{code}`;
const dir = 'functions/waitlist';

export const waitlistRoutes = [
  row({
    operationId: 'joinWaitlist',
    method: 'POST',
    path: base,
    permission: 'bookings.create',
    handler: `${dir}/join.ts`,
    area,
    schemas: { body: waitlist.JoinWaitlistBody, response: waitlist.WaitlistEntryView },
  }),
  row({
    operationId: 'listWaitlist',
    method: 'GET',
    path: base,
    permission: 'bookings.read',
    handler: `${dir}/list.ts`,
    area,
    schemas: { query: waitlist.ListWaitlistQuery, response: waitlist.WaitlistEntryListView },
  }),
  row({
    operationId: 'getWaitlistEntry',
    method: 'GET',
    path: `${base}/{id}`,
    permission: 'bookings.read',
    handler: `${dir}/get.ts`,
    area,
    schemas: { path: waitlist.WaitlistPath, response: waitlist.WaitlistEntryView },
  }),
  row({
    operationId: 'offerWaitlistSpot',
    method: 'POST',
    path: `${base}/{id}/offer`,
    permission: 'bookings.manage',
    handler: `${dir}/offer.ts`,
    area,
    solver: true,
    schemas: { path: waitlist.WaitlistPath, body: waitlist.OfferWaitlistBody, response: waitlist.WaitlistEntryView },
  }),
  row({
    operationId: 'getWaitlistByCode',
    method: 'GET',
    path: byCode,
    permission: null,
    byCode: true,
    handler: `${dir}/get-by-code.ts`,
    area,
    schemas: { path: waitlist.CodePath, response: waitlist.PublicWaitlistEntryView },
  }),
  row({
    operationId: 'acceptWaitlistOffer',
    method: 'POST',
    path: `${byCode}/accept`,
    permission: null,
    byCode: true,
    handler: `${dir}/accept.ts`,
    area,
    schemas: { path: waitlist.CodePath, response: waitlist.PublicWaitlistEntryView },
  }),
  row({
    operationId: 'declineWaitlistOffer',
    method: 'POST',
    path: `${byCode}/decline`,
    permission: null,
    byCode: true,
    handler: `${dir}/decline.ts`,
    area,
    schemas: { path: waitlist.CodePath, response: waitlist.PublicWaitlistEntryView },
  }),
  row({
    operationId: 'leaveWaitlist',
    method: 'DELETE',
    path: `${byCode}/leave`,
    permission: null,
    byCode: true,
    handler: `${dir}/leave.ts`,
    area,
    schemas: { path: waitlist.CodePath, response: waitlist.PublicWaitlistEntryView },
  }),
] as const;
