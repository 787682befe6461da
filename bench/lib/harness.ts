/**
 * In-process harness: DynamoDB mocked, one real bcrypt-hashed API key, handlers loaded from their
 * files (through tsx, as the tests do) and called as API Gateway calls them (bin/local/gateway.ts).
 * The environment must be set before this module is loaded (bench/run.ts does so and imports the
 * sections dynamically).
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { generateApiKey } from '../../shared/auth/apiKey';
import type { ApiKeyAuth } from '../../shared/data/apiKeys';
import { routePermissions, type Route } from '../../shared/routes';
import { invokeThroughGateway } from '../../bin/local/gateway';
import { COMPANY_ID, type Fixture } from '../fixtures';
import { lambdaContext, proxyEvent } from './events';
import { mockDb, type MockDb } from './mockDb';

type Lambda = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface Harness {
  root: string;
  db: MockDb;
  apiKey: string;
  handler(route: Route): Promise<Lambda>;
  /** A fresh event for the route and fixture (the bench key attached when the route needs one). */
  event(route: Route, fixture: Fixture): APIGatewayProxyEvent;
  context(route: Route): Context;
}

export async function createHarness(root: string): Promise<Harness> {
  const db = mockDb();
  const key = await generateApiKey('local');
  const auth: ApiKeyAuth = {
    apiKeyId: 'b7e4c1d0-2a9f-4e3b-8c6d-1f0e9a8b7c6d',
    companyId: COMPANY_ID,
    hash: key.hash,
    tier: 'standard',
    permissions: routePermissions(),
    locationIds: null,
    revoked: false,
    usageKey: null,
  };
  db.setKeyItem(key.keyId, { pk: `KEY#${key.keyId}`, sk: 'KEY', entity: 'APIKEY_AUTH', ...auth });

  const loaded = new Map<string, Lambda>();
  const contexts = new Map<string, Context>();
  return {
    root,
    db,
    apiKey: key.plaintext,
    async handler(route) {
      let h = loaded.get(route.handler);
      if (!h) {
        const mod = (await import(pathToFileURL(join(root, route.handler)).href)) as { handler?: Lambda };
        if (typeof mod.handler !== 'function') throw new Error(`${route.handler} exports no handler`);
        loaded.set(route.handler, (h = mod.handler));
      }
      const fn = h;
      // As API Gateway calls it: through the authorizer when the route has a permission.
      return (event, context) => invokeThroughGateway(route, fn, event, context);
    },
    event(route, fixture) {
      const send = fixture.authenticated ?? route.permission !== null;
      return proxyEvent(route, { ...fixture.event, ...(send ? { apiKey: key.plaintext } : {}) });
    },
    context(route) {
      let c = contexts.get(route.operationId);
      if (!c) contexts.set(route.operationId, (c = lambdaContext(`brigade-${route.operationId}`)));
      return c;
    },
  };
}

/** `statusCode` plus the error code of an error envelope, for messages. */
export function describeResponse(res: APIGatewayProxyResult | undefined): string {
  if (!res) return 'no response';
  try {
    const body = JSON.parse(res.body) as { error?: { code?: string; message?: string } };
    return body.error ? `${res.statusCode} ${body.error.code}: ${body.error.message}` : String(res.statusCode);
  } catch {
    return String(res.statusCode);
  }
}

export const isOk = (res: APIGatewayProxyResult | undefined, expect?: number) =>
  res !== undefined &&
  (expect !== undefined ? res.statusCode === expect : res.statusCode >= 200 && res.statusCode < 300);
