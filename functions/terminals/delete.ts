import { deleteTerminal } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteTerminal';

export const handler = httpHandler(operation, (req) => deleteTerminal(req.principal, req.path.id));
