import { addScheduleRule } from '../../shared/domain/schedules/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/addScheduleRule';

export const handler = httpHandler(operation, (req) => addScheduleRule(req.principal, req.path.scheduleId, req.body));
