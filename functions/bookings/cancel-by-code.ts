import { cancelByCode } from '../../shared/domain/bookings/transitions';
import { publicHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/cancelBookingByCode';

export const handler = publicHandler(operation, (req) => cancelByCode(req.path.code));
