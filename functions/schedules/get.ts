import { getSchedule } from '../../shared/domain/schedules/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getSchedule';

export const handler = httpHandler(operation, (req) => getSchedule(req.principal, req.path.id));
