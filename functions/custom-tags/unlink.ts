import { unlinkCustomTag } from '../../shared/domain/customTags';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/unlinkCustomTag';

export const handler = httpHandler(operation, (req) => unlinkCustomTag(req.principal, req.body));
