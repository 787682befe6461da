import { getTerminal } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getTerminal';

export const handler = httpHandler(operation, (req) => getTerminal(req.principal, req.path.id));
