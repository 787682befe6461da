import { resolveAlert } from '../../shared/domain/alerts';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/resolveAlert';

export const handler = httpHandler(operation, (req) => resolveAlert(req.principal, req.path.id));
