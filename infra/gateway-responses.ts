/**
 * Answers API Gateway gives on its own (before or instead of a handler), in the contract's error
 * envelope (docs/api.md), so a client parses every error the same way.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { AppError, statusOf, UNAVAILABLE_RETRY_AFTER_SECONDS, type ErrorCode } from '../shared/errors';
import { exposeHeaders } from '../shared/http/cors';
import { errorBody } from '../shared/http/envelope';

export interface GatewayError {
  type: apigw.ResponseType;
  code: ErrorCode;
  message: string;
  /** Static response headers. */
  headers?: Record<string, string>;
  /** Keep API Gateway's own status (the DEFAULT_* families span several); else the code's status. */
  keepStatus?: boolean;
}

/** A 503 says when to try again, as the handlers' own 503s do (shared/errors.ts `unavailable`). */
const retryLater = { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };

export const gatewayErrors: readonly GatewayError[] = [
  {
    type: apigw.ResponseType.DEFAULT_4XX,
    code: 'VALIDATION_FAILED',
    message: 'The request was rejected before it reached the service',
    keepStatus: true,
  },
  {
    type: apigw.ResponseType.DEFAULT_5XX,
    code: 'INTERNAL',
    message: 'Something went wrong; quote the requestId when you report it',
    keepStatus: true,
  },
  {
    type: apigw.ResponseType.UNAUTHORIZED,
    code: 'UNAUTHENTICATED',
    message: 'A valid API key or bearer token is required',
  },
  { type: apigw.ResponseType.ACCESS_DENIED, code: 'FORBIDDEN', message: 'This credential may not call this operation' },
  {
    type: apigw.ResponseType.INVALID_API_KEY,
    code: 'FORBIDDEN',
    message: 'This credential has no usage plan on this stage',
  },
  // API Gateway's answer to a path or method it does not know; the contract says 404.
  {
    type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN,
    code: 'NOT_FOUND',
    message: 'No operation at this path and method',
  },
  { type: apigw.ResponseType.RESOURCE_NOT_FOUND, code: 'NOT_FOUND', message: 'No operation at this path and method' },
  // The usage plans' per-second throttle; the hourly window is the handlers' (with X-RateLimit-*).
  {
    type: apigw.ResponseType.THROTTLED,
    code: 'RATE_LIMITED',
    message: 'Too many requests per second; slow down',
    headers: { 'Retry-After': '1' },
  },
  { type: apigw.ResponseType.QUOTA_EXCEEDED, code: 'RATE_LIMITED', message: 'Request quota used up' },
  { type: apigw.ResponseType.REQUEST_TOO_LARGE, code: 'PAYLOAD_TOO_LARGE', message: 'The body is too large' },
  // The authorizer throws only when it cannot check a credential (shared/auth/authorizer.ts).
  {
    type: apigw.ResponseType.AUTHORIZER_FAILURE,
    code: 'UNAVAILABLE',
    message: 'A dependency is unavailable; try again shortly',
    headers: retryLater,
  },
  // The authorizer could not be invoked: at its reserved concurrency during a flood (edge.ts), or down.
  {
    type: apigw.ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
    code: 'UNAVAILABLE',
    message: 'A dependency is unavailable; try again shortly',
    headers: retryLater,
  },
];

/**
 * The web ACL's block (edge.ts): every rule of it is a rate limit, so a block is a 429. The client
 * is let through again once its count over the rules' window falls under the limit: at most one
 * window after it stops.
 */
export const wafBlocked = (windowSeconds: number): GatewayError => ({
  type: apigw.ResponseType.WAF_FILTERED,
  code: 'RATE_LIMITED',
  message: 'Too many requests from this client, credential or public path; slow down',
  headers: { 'Retry-After': String(windowSeconds) },
});

/** `$context.requestId` is filled in by API Gateway: the body is a mapping template. */
const gatewayErrorBody = (e: GatewayError) => errorBody(new AppError(e.code, e.message), '$context.requestId');

/**
 * Every gateway answer may be read by a browser page of any origin (shared/http/cors.ts): without
 * it a page could not tell a 401 or a 429 from a network failure. The answers are the fixed
 * envelopes above, with nothing of the caller's data.
 */
const gatewayCorsHeaders = { 'Access-Control-Allow-Origin': '*', ...exposeHeaders };

export function addGatewayErrors(api: apigw.RestApi, errors: readonly GatewayError[] = gatewayErrors): void {
  for (const e of errors) {
    const headers = { ...gatewayCorsHeaders, ...e.headers };
    api.addGatewayResponse(e.type.responseType, {
      type: e.type,
      ...(e.keepStatus ? {} : { statusCode: String(statusOf[e.code]) }),
      templates: { 'application/json': gatewayErrorBody(e) },
      // API Gateway reads a header value as a mapping expression: a literal is quoted.
      responseHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, `'${value}'`])),
    });
  }
}
