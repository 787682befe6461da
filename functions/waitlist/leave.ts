import { leaveWaitlist } from '../../shared/domain/waitlist/operations';
import { publicHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/leaveWaitlist';

export const handler = publicHandler(operation, (req) => leaveWaitlist(req.path.code));
