import { getTab } from '../../shared/domain/tabs/tabs';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getTab';

export const handler = httpHandler(operation, (req) => getTab(req.principal, req.path.tabId));
