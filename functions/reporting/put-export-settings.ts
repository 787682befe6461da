import { putExportSettings } from '../../shared/domain/reporting/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/putExportSettings';

export const handler = httpHandler(operation, (req) => putExportSettings(req.principal, req.body));
