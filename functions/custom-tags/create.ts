import { createCustomTag } from '../../shared/domain/customTags';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createCustomTag';

export const handler = httpHandler(operation, (req) => createCustomTag(req.principal, req.body));
