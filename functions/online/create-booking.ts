import { createOnlineBooking } from '../../shared/domain/online/guest';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createOnlineBooking';

export const handler = httpHandler(operation, (req) => createOnlineBooking(req.principal, req.body));
