import { searchCustomTags } from '../../shared/domain/customTags';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/searchCustomTags';

export const handler = httpHandler(operation, (req) => searchCustomTags(req.principal, req.query));
