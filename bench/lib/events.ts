/**
 * API Gateway REST (v1) proxy events and Lambda contexts, shaped like the ones API Gateway sends
 * (mixed-case headers, multi-value twins, a full requestContext), so the header normalizer, the
 * parameter steps and the body parser do their real work.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Route } from '../../shared/routes';
import { gatewayIdentity } from '../../bin/local/gateway';

export interface EventInput {
  pathParameters?: Record<string, string> | null;
  queryStringParameters?: Record<string, string> | null;
  /** Serialized with JSON.stringify unless already a string. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The plaintext API key to send as X-API-Key (omitted: no credential). */
  apiKey?: string;
}

let seq = 0;

function fillPath(template: string, params: Record<string, string> | null | undefined): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params?.[name] ?? `{${name}}`));
}

/** A fresh event each call: the chain mutates events (headers, body, query) and keys state by identity. */
export function proxyEvent(route: Route, input: EventInput): APIGatewayProxyEvent {
  seq += 1;
  const requestId = `bench-${seq.toString(36)}-0000-4000-8000-000000000000`;
  const body =
    input.body === undefined || input.body === null
      ? null
      : typeof input.body === 'string'
        ? input.body
        : JSON.stringify(input.body);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Encoding': 'gzip, deflate, br',
    Host: 'api.brigade.example',
    'User-Agent': 'brigade-bench/1.0',
    'X-Amzn-Trace-Id': `Root=1-6740a1b2-${seq.toString(16).padStart(24, '0')}`,
    'X-Forwarded-For': '203.0.113.10, 198.51.100.7',
    'X-Forwarded-Port': '443',
    'X-Forwarded-Proto': 'https',
    ...(body !== null ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}),
    ...(input.apiKey ? { 'X-API-Key': input.apiKey } : {}),
    ...input.headers,
  };
  const multiValueHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]]));
  const query = input.queryStringParameters ?? null;
  const path = fillPath(route.path, input.pathParameters);
  return {
    resource: route.path,
    path,
    httpMethod: route.method,
    headers,
    multiValueHeaders,
    queryStringParameters: query,
    multiValueQueryStringParameters: query ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])) : null,
    pathParameters: input.pathParameters ?? null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abcdef1234',
      authorizer: null,
      domainName: 'api.brigade.example',
      domainPrefix: 'api',
      extendedRequestId: `ext-${seq}`,
      httpMethod: route.method,
      path: `/v1${path}`,
      protocol: 'HTTP/1.1',
      requestId,
      requestTime: '20/Nov/2026:22:00:00 +0000',
      requestTimeEpoch: 1_795_212_000_000,
      resourceId: 'res123',
      resourcePath: route.path,
      stage: 'v1',
      identity: gatewayIdentity('203.0.113.10', 'brigade-bench/1.0'),
    },
  } as unknown as APIGatewayProxyEvent;
}

/** A Lambda context: Middy arms its early-timeout timer when getRemainingTimeInMillis exists, as on AWS. */
export function lambdaContext(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-north-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: `aws-${seq}`,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: '2026/11/20/[$LATEST]bench',
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
