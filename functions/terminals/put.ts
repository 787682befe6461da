import { putTerminal } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/putTerminal';

export const handler = httpHandler(operation, (req) => putTerminal(req.principal, req.path.id, req.body));
