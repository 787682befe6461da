import { deleteSchedule } from '../../shared/domain/schedules/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteSchedule';

export const handler = httpHandler(operation, (req) => deleteSchedule(req.principal, req.path.id));
