import { listCoursings } from '../../shared/domain/coursings';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listCoursings';
import { route } from '../../shared/routes';
import type { ListCoursingsQuery } from '../../shared/schemas/coursings';

export const handler = httpHandler<unknown, ListCoursingsQuery>(route('listCoursings'), validators, (req) =>
  listCoursings(req.principal, req.query, req.headers['x-location-id']),
);
