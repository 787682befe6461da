/**
 * Which rows of the route table the API suite called, and how they answered: a record of every
 * request the suite's shared local stage served, taken in the process that runs the stage (Node's
 * `http.server.response.finish` diagnostics channel sees each answer of that server, whatever
 * client made the request). Each request is matched with the router the stage itself uses, so a
 * row counts when the stage dispatched a request to it; a path no row has, or a method a path does
 * not allow, counts for the fallback. `test/api-coverage/routes.test.ts` reads the record.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { matchRoute } from '../../shared/http/router';

/** operationId, or `fallback:not-found` / `fallback:method-not-allowed` → the statuses it answered. */
export type RouteLog = Record<string, number[]>;

const CHANNEL = 'http.server.response.finish';

/** Starts recording the answers of the server on `port` into `file` (JSON); answers a function that stops it. */
export function recordRoutes(port: number, file: string): () => void {
  const log: RouteLog = {};
  writeFileSync(file, '{}');
  const onFinish = (message: unknown) => {
    const { request, response, server } = message as {
      request: IncomingMessage;
      response: ServerResponse;
      server: Server;
    };
    const address = server.address();
    if (typeof address !== 'object' || address?.port !== port) return;
    const match = matchRoute(request.method ?? '', new URL(request.url ?? '/', 'http://stage').pathname);
    const key = match.kind === 'route' ? match.route.operationId : `fallback:${match.kind}`;
    const statuses = (log[key] ??= []);
    if (statuses.includes(response.statusCode)) return;
    statuses.push(response.statusCode);
    writeFileSync(file, JSON.stringify(log));
  };
  subscribe(CHANNEL, onFinish);
  return () => unsubscribe(CHANNEL, onFinish);
}

export const readRouteLog = (file: string): RouteLog => JSON.parse(readFileSync(file, 'utf8')) as RouteLog;
