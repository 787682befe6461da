/**
 * The local stage's edge: a Node HTTP server that does what API Gateway does for the REST API —
 * match the route table, build a REST (v1) proxy event, run the authorizer where the route has one
 * (gateway.ts), invoke the operation's handler — so the handlers run exactly as deployed.
 * Requests that match no operation go to the fallback handler. Browsers' preflights are answered
 * here, from the definitions the template's OPTIONS methods use (shared/http/cors.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { config } from '../../shared/config';
import { corsPaths, hasPreflight, preflight } from '../../shared/http/cors';
import { matchRoute, resourceOf } from '../../shared/http/router';
import { routes, type Route } from '../../shared/routes';
import { setContainerScope } from '../../shared/domain/rateLeases';
import { asFunction, runningFunction } from './function-scope';
import { gatewayIdentity, invokeThroughGateway } from './gateway';

// Each function leases its own blocks of the rate windows, as each is its own container on AWS.
setContainerScope(() => runningFunction.getStore() ?? '');

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** API Gateway refuses payloads over 10 MB before any Lambda runs. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;
const projectRoot = new URL('../../', import.meta.url);

const importHandler = async (file: string): Promise<Handler> =>
  (await import(new URL(file, projectRoot).href)).handler as Handler;

/** Loads every operation's handler up front, so a broken one fails the start, not a request. */
async function loadHandlers(): Promise<{ byOperation: Map<string, Handler>; fallback: Handler }> {
  const entries = await Promise.all(
    (routes as readonly Route[]).map(async (r) => [r.operationId, await importHandler(r.handler)] as const),
  );
  return { byOperation: new Map(entries), fallback: await importHandler('functions/fallback.ts') };
}

function lambdaContext(requestId: string, name: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `brigade-local-${name}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:brigade-local-${name}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/brigade-local-${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => ok(size > GATEWAY_MAX_BODY ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', fail);
  });
}

/**
 * Name → last value and name → every value, as API Gateway gives headers and query parameters.
 * Built as own properties whatever the name: a parameter called `constructor` or `__proto__` is a
 * parameter like any other (indexing a plain object by it found Object.prototype's members, and
 * the edge failed with a 502).
 */
function byName(pairs: Iterable<readonly [string, string]>): {
  last: Record<string, string>;
  all: Record<string, string[]>;
} {
  const all = new Map<string, string[]>();
  for (const [name, value] of pairs) all.set(name, [...(all.get(name) ?? []), value]);
  return {
    last: Object.fromEntries([...all].map(([name, values]) => [name, values.at(-1)!])),
    all: Object.fromEntries(all),
  };
}

function toEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  resource: string,
  pathParameters: Record<string, string> | null,
): APIGatewayProxyEvent {
  const rawHeaders = Array.from(
    { length: req.rawHeaders.length / 2 },
    (_, i) => [req.rawHeaders[2 * i]!, req.rawHeaders[2 * i + 1]!] as const,
  );
  const { last: headers, all: multiValueHeaders } = byName(rawHeaders);
  const { last: query, all: multiQuery } = byName(url.searchParams);
  const hasQuery = Object.keys(query).length > 0;
  // The connection's peer, as API Gateway gives it (`identity.sourceIp`), never a header: a client
  // writes X-Forwarded-For. The chain keys per-IP windows by it (an IPv6 client by its /64).
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return {
    resource,
    path: url.pathname,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters,
    stageVariables: null,
    // Every media type is binary on the API (infra/api.ts): API Gateway hands a body over base64-encoded.
    body: body.length ? body.toString('base64') : null,
    isBase64Encoded: body.length > 0,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: null,
      protocol: `HTTP/${req.httpVersion}`,
      httpMethod: req.method ?? 'GET',
      identity: gatewayIdentity(sourceIp, req.headers['user-agent'] ?? null),
      path: url.pathname,
      stage: 'local',
      requestId: randomUUID(),
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: resource,
    },
  };
}

/** The preflight answers of each API path (shared/http/cors.ts), by its template. */
const preflightPaths = new Map(corsPaths(routes as readonly Route[]).map((path) => [path.path, path]));

export async function createLocalServer(): Promise<Server> {
  const { byOperation, fallback } = await loadHandlers();
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = await readBody(req);
      if (body === 'too-large') {
        res.writeHead(413, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'Request Too Long' }));
        return;
      }
      // A browser's preflight, answered as the template's MOCK methods do (infra/cors.ts); a path
      // without one goes to the fallback (405), as API Gateway's ANY method takes it there.
      const corsPath = req.method === 'OPTIONS' ? preflightPaths.get(resourceOf(url.pathname) ?? '') : undefined;
      const { corsOrigins } = config();
      if (corsPath && hasPreflight(corsPath, corsOrigins)) {
        res.writeHead(204, preflight(corsPath, req.headers.origin, corsOrigins)).end();
        return;
      }
      const match = matchRoute(req.method ?? 'GET', url.pathname);
      const route = match.kind === 'route' ? match.route : undefined;
      const event = toEvent(
        req,
        url,
        body,
        route?.path ?? '/{proxy+}',
        match.kind === 'route' && Object.keys(match.pathParameters).length ? match.pathParameters : null,
      );
      const context = lambdaContext(event.requestContext.requestId, route?.operationId ?? 'fallback');
      // Each operation is a function of its own on AWS (bin/local/function-scope.ts).
      const out = await asFunction(route?.operationId ?? 'fallback', () =>
        route
          ? invokeThroughGateway(route, byOperation.get(route.operationId)!, event, context)
          : fallback(event, context),
      );
      // A file answer comes base64-encoded (shared/download.ts); API Gateway sends its bytes whatever
      // the Accept (every media type is binary, infra/api.ts), and so does this. Text passes as it is.
      res
        .writeHead(out.statusCode, out.headers as Record<string, string>)
        .end(out.isBase64Encoded ? Buffer.from(out.body, 'base64') : out.body);
    } catch (err) {
      // A handler never throws (the chain answers every error); this is the edge failing.
      console.error('local stage: request failed', err);
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: 'Internal server error' }));
    }
  };
  // answer() catches every error itself (its last resort is a 502), so its promise never rejects.
  return createServer((req, res) => void answer(req, res));
}
