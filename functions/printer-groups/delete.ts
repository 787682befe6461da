import { deletePrinterGroup } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deletePrinterGroup';

export const handler = httpHandler(operation, (req) => deletePrinterGroup(req.principal, req.path.id));
