import { createSchedule } from '../../shared/domain/schedules/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createSchedule';

export const handler = httpHandler(operation, (req) => createSchedule(req.principal, req.body));
