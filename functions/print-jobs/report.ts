import { reportPrintJob } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/reportPrintJob';

export const handler = httpHandler(operation, (req) =>
  reportPrintJob(req.principal, req.path.printerGroupId, req.path.jobId, req.body),
);
