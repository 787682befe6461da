/**
 * Middy requests for the unit tests of the chain's steps (test/unit/chain/): each test calls a
 * step's `before`, `after` or `onError` directly with the request Middy would give it.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Principal } from '../../shared/auth/principal';
import type { ChainRequest, ChainState, HttpEvent } from '../../shared/http/chain/state';

/** An API Gateway (REST, v1) event for a GET of /api/v1/coursings from 203.0.113.9, with `overrides`. */
export function gatewayEvent(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    resource: '/api/v1/coursings',
    path: '/api/v1/coursings',
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId: 'req-1',
      identity: { sourceIp: '203.0.113.9' },
    } as APIGatewayProxyEvent['requestContext'],
    ...overrides,
  };
}

/** The same event as a step sees it (a parsed body, query and path objects), with `overrides`. */
export function httpEvent(overrides: Partial<HttpEvent> = {}): HttpEvent {
  return { ...gatewayEvent(), ...overrides };
}

/** The state the responder opens, with what the steps before the one under test would have left. */
export function chainState(overrides: Partial<ChainState> = {}): ChainState {
  return { requestId: 'req-1', sourceIp: '203.0.113.9', rateHeaders: {}, corsHeaders: {}, ...overrides };
}

/** A Middy request; `state` as the steps before the one under test left it (none: the responder has not run). */
export function chainRequest(event: Partial<HttpEvent> = {}, state?: Partial<ChainState>): ChainRequest {
  return {
    event: httpEvent(event),
    context: { awsRequestId: 'ctx' } as Context,
    response: undefined,
    error: undefined,
    internal: state ? { brigade: chainState(state) } : {},
  };
}

export const principal = (overrides: Partial<Principal> = {}): Principal => ({
  kind: 'apiKey',
  companyId: 1,
  permissions: ['coursings.read', 'coursings.create'],
  tier: 'standard',
  locationIds: null,
  rateSubject: 'key:abc',
  internalOperator: false,
  ...overrides,
});
