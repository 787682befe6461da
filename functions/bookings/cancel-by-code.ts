import { cancelByCode } from '../../shared/domain/bookings/transitions';
import { publicHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/cancelBookingByCode';
import { route } from '../../shared/routes';
import type { CodePath } from '../../shared/schemas/bookings';

export const handler = publicHandler<unknown, unknown, CodePath>(route('cancelBookingByCode'), validators, (req) => cancelByCode(req.path.code));
