import { onlineLocation } from '../../shared/domain/online/guest';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getOnlineLocation';

export const handler = httpHandler(operation, (req) => onlineLocation(req.principal, req.path.locationId));
