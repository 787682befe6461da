import { deleteScheduleRule } from '../../shared/domain/schedules/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteScheduleRule';

export const handler = httpHandler(operation, (req) => deleteScheduleRule(req.principal, req.path.ruleId));
