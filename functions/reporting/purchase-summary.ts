import { purchaseSummary } from '../../shared/domain/reporting/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getPurchaseSummary';

export const handler = httpHandler(operation, (req) => purchaseSummary(req.principal, req.query, req.headers));
