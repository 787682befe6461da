import { createGuest } from '../../shared/domain/guests';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createGuest';

export const handler = httpHandler(operation, (req) =>
  createGuest(req.principal, req.body, req.headers['x-location-id']),
);
