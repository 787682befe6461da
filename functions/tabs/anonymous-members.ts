import { addAnonymousMember } from '../../shared/domain/tabs/tabs';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/addTabAnonymousMember';

export const handler = httpHandler(operation, (req) => addAnonymousMember(req.principal, req.path.tabId));
