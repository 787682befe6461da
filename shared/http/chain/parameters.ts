/** API Gateway sends null for absent query strings and path parameters; the schemas expect objects. */
import type { ChainStep } from './state';

export function parameters(): ChainStep {
  return {
    before: (request) => {
      request.event.queryStringParameters ??= {};
      request.event.pathParameters ??= {};
    },
  };
}
