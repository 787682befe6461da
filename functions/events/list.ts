import { listEvents } from '../../shared/domain/events';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listEvents';
import { route } from '../../shared/routes';
import type { ListEventsQuery } from '../../shared/schemas/webhooks';

export const handler = httpHandler<unknown, ListEventsQuery>(route('listEvents'), validators, (req) => listEvents(req.principal, req.query));
