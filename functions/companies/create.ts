import { createCompany } from '../../shared/domain/companies';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createCompany';

export const handler = httpHandler(operation, (req) => createCompany(req.principal, req.body));
