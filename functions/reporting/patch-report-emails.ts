import { patchReportEmails } from '../../shared/domain/reporting/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/patchReportEmails';

export const handler = httpHandler(operation, (req) => patchReportEmails(req.principal, req.path.locationId, req.body));
