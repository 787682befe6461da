import { linkCustomTag } from '../../shared/domain/customTags';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/linkCustomTag';

export const handler = httpHandler(operation, (req) => linkCustomTag(req.principal, req.body));
