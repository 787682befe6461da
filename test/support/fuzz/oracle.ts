/**
 * How the API must answer a fuzz case, worked out the way the stage's chain decides
 * (shared/http/chain/buildChain.ts): the router (no operation: the fallback's 404 or 405), then the body
 * (over 256 KiB: 413; not JSON by its Content-Type: 415; not parseable, or `__proto__`: 400),
 * then the row's schemas (400), then the Idempotency-Key (400). The schemas are compiled here
 * with the options `npm run gen:operations` compiles them with (path and query coerced from text,
 * defaults filled) and joined by the chain's own `eventValidator`, so "invalid" means what the
 * stage's validators mean. A GET's body is not read at all. Anything else is a valid request: it may be answered 2xx or 4xx (an
 * unknown id, a business rule), never 5xx.
 */
import { Ajv, type AnySchema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { jsonContentTypePattern, jsonParseProtectProto } from '@middy/util';
import type { ErrorCode } from '../../../shared/errors';
import { MAX_BODY_BYTES } from '../../../shared/http/chain/jsonBody';
import { matchRoute } from '../../../shared/http/router';
import { eventValidator, type CompiledValidator, type EventValidator } from '../../../shared/http/validation';
import type { Route, RouteSchemas } from '../../../shared/routes';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule;

export type Expectation =
  | { kind: 'reject'; status: number; code: ErrorCode; why: string }
  /** A valid request to this route (or another one the path happens to name). */
  | { kind: 'valid'; operationId: string; why: string };

const compiled = new Map<string, EventValidator | undefined>();

/** The route's validators, compiled as gen-operations compiles them. */
function validatorOf(route: Route): EventValidator | undefined {
  if (!compiled.has(route.operationId)) {
    const parts: Partial<Record<keyof RouteSchemas, CompiledValidator>> = {};
    for (const part of ['path', 'query', 'body'] as const) {
      const schema = route.schemas[part];
      if (!schema) continue;
      const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false, coerceTypes: part !== 'body' });
      addFormats(ajv);
      parts[part] = ajv.compile(schema as AnySchema) as CompiledValidator;
    }
    compiled.set(route.operationId, eventValidator(parts));
  }
  return compiled.get(route.operationId);
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export interface Sent {
  method: string;
  /** Path and query as sent (percent-encoded). */
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The client address it is sent from (a by-code operation's cases: each its own, see fuzz.test.ts); 127.0.0.1 without it. */
  from?: string;
}

/** What the stage must answer to `sent`, which was made for `route`. */
export function expectationOf(route: Route, sent: Sent): Expectation {
  const url = new URL(sent.url, 'http://localhost');
  const match = matchRoute(sent.method, url.pathname);
  if (match.kind === 'not-found')
    return { kind: 'reject', status: 404, code: 'NOT_FOUND', why: 'the path names no operation' };
  if (match.kind === 'method-not-allowed')
    return { kind: 'reject', status: 405, code: 'METHOD_NOT_ALLOWED', why: 'the path has other methods' };
  const target = match.route;
  const headers = Object.fromEntries(Object.entries(sent.headers).map(([k, v]) => [k.toLowerCase(), v]));
  let body: unknown;
  // A GET's body is not read (shared/http/chain/jsonBody.ts).
  if (sent.body !== undefined && sent.body !== '' && sent.method !== 'GET') {
    if (Buffer.byteLength(sent.body) > MAX_BODY_BYTES)
      return { kind: 'reject', status: 413, code: 'PAYLOAD_TOO_LARGE', why: 'the body is over the limit' };
    if (!jsonContentTypePattern.test(headers['content-type'] ?? ''))
      return { kind: 'reject', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', why: 'the Content-Type is not JSON' };
    try {
      body = jsonParseProtectProto(sent.body, undefined, 'fuzz');
    } catch {
      return {
        kind: 'reject',
        status: 400,
        code: 'VALIDATION_FAILED',
        why: 'the body is not JSON (or names __proto__)',
      };
    }
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  const validate = validatorOf(target);
  if (validate) {
    const event = { pathParameters: { ...match.pathParameters }, queryStringParameters: query, body };
    if (!validate(event))
      return {
        kind: 'reject',
        status: 400,
        code: 'VALIDATION_FAILED',
        why: `schema: ${JSON.stringify(validate.errors).slice(0, 200)}`,
      };
  }
  const key = headers['idempotency-key'];
  if (sent.method === 'POST' && key !== undefined && !IDEMPOTENCY_KEY.test(key))
    return { kind: 'reject', status: 400, code: 'VALIDATION_FAILED', why: 'the Idempotency-Key is not valid' };
  return {
    kind: 'valid',
    operationId: target.operationId,
    why: target === route ? 'valid by the schemas' : `a valid request to ${target.operationId}`,
  };
}
