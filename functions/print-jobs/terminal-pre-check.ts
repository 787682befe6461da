import { terminalPreCheck } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/terminalPreCheck';

export const handler = httpHandler(operation, (req) => terminalPreCheck(req.principal, req.body));
