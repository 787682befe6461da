/**
 * What API Gateway does in front of a function, for the local stage and for in-process callers
 * (tests, bench): an operation with a permission first goes through the REQUEST authorizer
 * (shared/auth/authorizer.ts), whose context reaches the handler as `requestContext.authorizer`;
 * when the authorizer throws (it could not check the credential), the gateway answers 503 in the
 * envelope itself (infra/gateway-responses.ts, AUTHORIZER_FAILURE) and the handler never runs.
 * Public operations, probes and the fallback have no authorizer in front.
 */
import type {
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { authorizeRequest as authorize } from '../../shared/auth/authorizer';
import { asFunction } from './function-scope';
import { AppError, unavailable } from '../../shared/errors';
import { errorBody } from '../../shared/http/envelope';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * The caller as API Gateway describes it in a REST proxy event (`requestContext.identity`): the
 * connection's address and user agent; the IAM and Cognito fields are null for API-key callers.
 */
export function gatewayIdentity(
  sourceIp: string,
  userAgent: string | null,
): APIGatewayProxyEvent['requestContext']['identity'] {
  return {
    accessKey: null,
    accountId: null,
    apiKey: null,
    apiKeyId: null,
    caller: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    sourceIp,
    user: null,
    userAgent,
    userArn: null,
  };
}

/** The REQUEST authorizer's event for a proxy event (no identity sources, no caching: infra/credential-authorizer.ts). */
export function authorizerEvent(event: APIGatewayProxyEvent, region = 'local'): APIGatewayRequestAuthorizerEvent {
  const ctx = event.requestContext;
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:${region}:${ctx.accountId ?? '000000000000'}:${ctx.apiId ?? 'local'}/${ctx.stage ?? 'local'}/${event.httpMethod}${event.path}`,
    resource: event.resource,
    path: event.path,
    httpMethod: event.httpMethod,
    headers: event.headers,
    multiValueHeaders: event.multiValueHeaders,
    pathParameters: event.pathParameters,
    queryStringParameters: event.queryStringParameters,
    multiValueQueryStringParameters: event.multiValueQueryStringParameters,
    stageVariables: event.stageVariables,
    // The authorizer reads only headers and methodArn; its requestContext has no authorizer yet.
    requestContext: { ...ctx, authorizer: undefined },
  };
}

/**
 * Invokes `handler` as API Gateway would for a route: through the authorizer when the route has a
 * permission. `event.requestContext.authorizer` is replaced by the authorizer's context.
 */
export async function invokeThroughGateway(
  route: { permission: string | null },
  handler: Handler,
  event: APIGatewayProxyEvent,
  context: Context,
): Promise<APIGatewayProxyResult> {
  if (route.permission === null) return handler(event, context);
  let verdict: Awaited<ReturnType<typeof authorize>>;
  try {
    verdict = await asFunction('authorizer', () => authorize(authorizerEvent(event)));
  } catch (err) {
    if (!(err instanceof AppError)) console.error('local stage: the authorizer failed', err);
    const error = unavailable();
    return {
      statusCode: error.status,
      headers: { 'Content-Type': 'application/json', ...error.headers },
      body: errorBody(error, event.requestContext.requestId),
    };
  }
  const authorized = { ...event, requestContext: { ...event.requestContext, authorizer: verdict.context ?? null } };
  return handler(authorized, context);
}
