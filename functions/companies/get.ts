import { getCompany } from '../../shared/domain/companies';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getCompany';

export const handler = httpHandler(operation, (req) => getCompany(req.principal, req.path.companyId));
