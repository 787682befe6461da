import { checkAvailability } from '../../shared/domain/schedules/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/checkScheduleAvailability';

export const handler = httpHandler(operation, (req) => checkAvailability(req.principal, req.query));
