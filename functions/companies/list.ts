import { listCompanies } from '../../shared/domain/companies';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listCompanies';

export const handler = httpHandler(operation, (req) => listCompanies(req.principal, req.query));
