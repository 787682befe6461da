import { listVariantGroups } from '../../shared/domain/variantGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listVariantGroups';

export const handler = httpHandler(operation, (req) =>
  listVariantGroups(req.principal, req.query, req.headers['x-location-id']),
);
