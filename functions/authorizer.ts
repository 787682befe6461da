/** The API Gateway REQUEST authorizer (shared/auth/authorizer.ts; infra/credential-authorizer.ts deploys it). */
import { authorizeRequest } from '../shared/auth/authorizer';
import { traced } from '../shared/runtime/tracing';

export const handler = traced(authorizeRequest);
