/**
 * Events shaped as AWS sends them to each kind of function: API Gateway's REST proxy integration
 * (payload 1.0) and its REQUEST authorizer, SQS (whose bodies are what EventBridge or the
 * dispatcher put there), EventBridge's scheduled event.
 */
import { randomUUID } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, SQSEvent } from 'aws-lambda';
import { authorizerEvent as gatewayAuthorizerEvent, gatewayIdentity } from '../../bin/local/gateway';
import { HARNESS } from './runtime';

const API_ID = 'bundlesapi';
const STAGE = 'dev';

export interface HttpRequest {
  /** The route's path template (`/api/v1/bookings/{id}`), or `/{proxy+}` for the fallback. */
  resource: string;
  method: string;
  /** The path and query string as sent (`/api/v1/bookings/abc?x=1`). */
  url: string;
  pathParameters: Record<string, string> | null;
  headers: Record<string, string>;
  body?: unknown;
}

/** Name → last value and name → every value, as own properties (as API Gateway's JSON has them). */
function byName(
  pairs: Iterable<readonly [string, string]>,
): { last: Record<string, string>; all: Record<string, string[]> } | null {
  const all = new Map<string, string[]>();
  for (const [name, value] of pairs) all.set(name, [...(all.get(name) ?? []), value]);
  if (all.size === 0) return null;
  return { last: Object.fromEntries([...all].map(([n, v]) => [n, v.at(-1)!])), all: Object.fromEntries(all) };
}

/**
 * The REST proxy event of a request, before the authorizer ran. A body goes base64-encoded with
 * `isBase64Encoded: true`, as API Gateway sends it when the binary media types match the request.
 */
export function proxyEvent(request: HttpRequest): APIGatewayProxyEvent {
  const url = new URL(request.url, 'https://api.bundles.local');
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Host: `${API_ID}.execute-api.${HARNESS.region}.amazonaws.com`,
    'User-Agent': 'brigade-bundles',
    'X-Forwarded-For': '198.51.100.7',
    'X-Forwarded-Port': '443',
    'X-Forwarded-Proto': 'https',
    ...request.headers,
  };
  const body = request.body === undefined ? null : Buffer.from(JSON.stringify(request.body)).toString('base64');
  if (body !== null) headers['Content-Type'] ??= 'application/json';
  const h = byName(Object.entries(headers))!;
  const q = byName(url.searchParams);
  const requestId = randomUUID();
  return {
    resource: request.resource,
    path: url.pathname,
    httpMethod: request.method,
    headers: h.last,
    multiValueHeaders: h.all,
    queryStringParameters: q?.last ?? null,
    multiValueQueryStringParameters: q?.all ?? null,
    pathParameters: request.pathParameters,
    stageVariables: null,
    body,
    isBase64Encoded: body !== null,
    requestContext: {
      accountId: HARNESS.accountId,
      apiId: API_ID,
      authorizer: null,
      domainName: `${API_ID}.execute-api.${HARNESS.region}.amazonaws.com`,
      domainPrefix: API_ID,
      extendedRequestId: requestId,
      httpMethod: request.method,
      identity: gatewayIdentity('198.51.100.7', 'brigade-bundles'),
      path: `/${STAGE}${url.pathname}`,
      protocol: 'HTTP/1.1',
      requestId,
      requestTime: new Date().toUTCString(),
      requestTimeEpoch: Date.now(),
      resourceId: 'abc123',
      resourcePath: request.resource,
      stage: STAGE,
    },
  };
}

/** The REQUEST authorizer's event for a proxy event, as the local edge builds it (bin/local/gateway.ts). */
export const authorizerEvent = (event: APIGatewayProxyEvent): APIGatewayRequestAuthorizerEvent =>
  gatewayAuthorizerEvent(event, HARNESS.region);

/** The authorizer's verdict as the integration's event carries it: its context, `principalId`, `integrationLatency`. */
export function authorized(
  event: APIGatewayProxyEvent,
  verdict: { principalId: string; context?: Record<string, unknown> | null },
): APIGatewayProxyEvent {
  return {
    ...event,
    requestContext: {
      ...event.requestContext,
      authorizer: { ...verdict.context, principalId: verdict.principalId, integrationLatency: 12 },
    },
  };
}

function sqsEvent(queueLogicalId: string, bodies: string[]): SQSEvent {
  return {
    Records: bodies.map((body) => ({
      messageId: randomUUID(),
      receiptHandle: `receipt-${randomUUID()}`,
      body,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(Date.now()),
        SenderId: 'AIDAEXAMPLE',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: 'not-checked',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${HARNESS.region}:${HARNESS.accountId}:${queueLogicalId}`,
      awsRegion: HARNESS.region,
    })),
  };
}

/**
 * The fan-out queue's message of an outbox item, as the chain delivers it: the table stream's
 * INSERT record (its new image in DynamoDB JSON) → the Pipe puts it on the bus as the event's
 * `detail` (source and detail type from infra/webhooks-pipeline.ts) → the rule's SQS target sends
 * the whole EventBridge event as the message body.
 */
export function fanOutEvent(image: Record<string, AttributeValue>, source: string, detailType: string): SQSEvent {
  const record = {
    eventID: randomUUID().replace(/-/g, ''),
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: HARNESS.region,
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: { pk: image.pk!, sk: image.sk! },
      NewImage: image,
      SequenceNumber: '100000000000000000001',
      SizeBytes: JSON.stringify(image).length,
      StreamViewType: 'NEW_IMAGE',
    },
    eventSourceARN: `arn:aws:dynamodb:${HARNESS.region}:${HARNESS.accountId}:table/${HARNESS.tableName}/stream/2026-01-01T00:00:00.000`,
  };
  const bridged = {
    version: '0',
    id: randomUUID(),
    'detail-type': detailType,
    source,
    account: HARNESS.accountId,
    time: new Date().toISOString(),
    region: HARNESS.region,
    resources: [],
    detail: record,
  };
  return sqsEvent('FanOutQueue', [JSON.stringify(bridged)]);
}

/** The delivery queue's messages, as the dispatcher sent them (their bodies). */
export const deliveryEvent = (bodies: string[]) => sqsEvent('DeliveryQueue', bodies);

/** EventBridge's scheduled event (the sweeper's rule, `rate(5 minutes)`). */
export function scheduledEvent(ruleLogicalId: string) {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: HARNESS.accountId,
    time: new Date().toISOString(),
    region: HARNESS.region,
    resources: [`arn:aws:events:${HARNESS.region}:${HARNESS.accountId}:rule/${ruleLogicalId}`],
    detail: {},
  };
}
