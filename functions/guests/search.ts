import { searchGuests } from '../../shared/domain/guests';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/searchGuests';

export const handler = httpHandler(operation, (req) =>
  searchGuests(req.principal, req.query, req.headers['x-location-id']),
);
