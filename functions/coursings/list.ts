import { listCoursings } from '../../shared/domain/coursings';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listCoursings';

export const handler = httpHandler(operation, (req) =>
  listCoursings(req.principal, req.query, req.headers['x-location-id']),
);
