import { previewPrintJob } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/previewPrintJob';

export const handler = httpHandler(operation, (req) =>
  previewPrintJob(req.principal, req.path.printerGroupId, req.path.jobId),
);
