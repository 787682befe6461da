import { getPrinterGroup } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getPrinterGroup';

export const handler = httpHandler(operation, (req) => getPrinterGroup(req.principal, req.path.id));
