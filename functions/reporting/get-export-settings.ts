import { getExportSettings } from '../../shared/domain/reporting/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getExportSettings';

export const handler = httpHandler(operation, (req) => getExportSettings(req.principal, req.query.locationId));
