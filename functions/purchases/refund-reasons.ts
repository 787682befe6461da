import { refundReasons } from '../../shared/domain/tabs/purchases';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listRefundReasons';

export const handler = httpHandler(operation, (req) => refundReasons(req.principal, req.query));
