import { rsvp } from '../../shared/domain/bookingMembers';
import { publicHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/rsvpBooking';

export const handler = publicHandler(operation, (req) => rsvp(req.body));
