/** The API Gateway REQUEST authorizer (shared/auth/authorizer.ts; infra/credential-authorizer.ts deploys it). */
import { authorizeRequest } from '../shared/auth/authorizer';

export const handler = authorizeRequest;
