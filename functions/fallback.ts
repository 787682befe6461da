/**
 * Answers requests that match no operation: 405 when the path exists with other methods, else 404,
 * in the envelope and with rate-limit headers like every other answer. On AWS it serves the API's
 * catch-all methods; the local stage calls it for unmatched requests.
 */
import { AppError } from '../shared/errors';
import { publicHandler } from '../shared/http/publicHandler';
import type { Operation } from '../shared/http/operation';
import { matchRoute } from '../shared/http/router';

/** Not a row of the route table: it serves what no row matches. */
const fallback: Operation<'fallback'> = {
  operationId: 'fallback',
  method: 'GET',
  path: '/{proxy+}',
  permission: null,
  validators: {},
};

export const handler = publicHandler(fallback, async (req) => {
  const match = matchRoute(req.method, req.rawPath);
  if (match.kind === 'method-not-allowed') {
    throw new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${match.allowed.join(', ')}`, [], {
      Allow: match.allowed.join(', '),
    });
  }
  throw new AppError('NOT_FOUND', `No operation at ${req.method} ${req.rawPath}`);
});
