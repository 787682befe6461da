import { replaceScheduleRules } from '../../shared/domain/schedules/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/replaceScheduleRules';

export const handler = httpHandler(operation, (req) =>
  replaceScheduleRules(req.principal, req.path.scheduleId, req.body),
);
