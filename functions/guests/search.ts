import { searchGuests } from '../../shared/domain/guests';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/searchGuests';
import { route } from '../../shared/routes';
import type { SearchGuestsQuery } from '../../shared/schemas/guests';

export const handler = httpHandler<unknown, SearchGuestsQuery>(route('searchGuests'), validators, (req) => searchGuests(req.principal, req.query));
