/**
 * The route's schemas (`@middy/validator`), precompiled by `npm run gen:operations` into
 * shared/http/operations/<operationId>.ts and joined by `eventValidator` (shared/http/validation.ts):
 * query and path coerced from text and defaults filled, the body checked as sent. A request that
 * fails is a 400 listing every field problem (errors.ts). A route without schemas has no step.
 */
import validator from '@middy/validator';
import { eventValidator, type RouteValidators } from '../validation';
import type { ChainStep } from './state';

export function schema(validators: RouteValidators): ChainStep[] {
  const eventSchema = eventValidator(validators);
  // @middy/validator calls the function and reads its `errors`: any compiled validator fits.
  return eventSchema ? [validator({ eventSchema: eventSchema as never })] : [];
}
