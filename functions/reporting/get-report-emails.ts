import { getReportEmails } from '../../shared/domain/reporting/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getReportEmails';

export const handler = httpHandler(operation, (req) => getReportEmails(req.principal, req.path.locationId));
