import { updateSchedule } from '../../shared/domain/schedules/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateSchedule';

export const handler = httpHandler(operation, (req) => updateSchedule(req.principal, req.path.id, req.body));
