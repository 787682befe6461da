import { rsvp } from '../../shared/domain/bookingMembers';
import { publicHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/rsvpBooking';
import { route } from '../../shared/routes';
import type { RsvpBody } from '../../shared/schemas/bookingMembers';

export const handler = publicHandler<RsvpBody>(route('rsvpBooking'), validators, (req) => rsvp(req.body));
