import { updateScheduleRule } from '../../shared/domain/schedules/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateScheduleRule';

export const handler = httpHandler(operation, (req) => updateScheduleRule(req.principal, req.path.ruleId, req.body));
