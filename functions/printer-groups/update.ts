import { updatePrinterGroup } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updatePrinterGroup';

export const handler = httpHandler(operation, (req) => updatePrinterGroup(req.principal, req.path.id, req.body));
