import { createPrinterGroup } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createPrinterGroup';

export const handler = httpHandler(operation, (req) => createPrinterGroup(req.principal, req.body));
