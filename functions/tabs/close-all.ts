import { closeAllTabs } from '../../shared/domain/tabs/tabs';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/closeAllTabs';

export const handler = httpHandler(operation, (req) => closeAllTabs(req.principal, req.headers['x-location-id']));
