import { createCompanyApiKey } from '../../shared/domain/companies';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createCompanyApiKey';

export const handler = httpHandler(operation, (req) =>
  createCompanyApiKey(req.principal, req.path.companyId, req.body),
);
