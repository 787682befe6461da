import { listEvents } from '../../shared/domain/events';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listEvents';

export const handler = httpHandler(operation, (req) => listEvents(req.principal, req.query));
