import { acknowledgeAlert } from '../../shared/domain/alerts';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/acknowledgeAlert';

export const handler = httpHandler(operation, (req) => acknowledgeAlert(req.principal, req.path.id));
