/**
 * The OpenAPI 3.1 description of the API, built from the route table and nothing else: each row's
 * TypeBox schemas (the ones that validate requests at run time, and `schemas.response`, the `data`
 * of its 200), its permission, and the contract's envelope, error codes, headers and events. A
 * pure function: `npm run openapi` and `npm run gen:operations` write its result
 * (bin/tools/gen-openapi.ts), GET /openapi.json serves that, and the API tests check every answer
 * against it (test/support/answers.ts). docs/openapi.md says how it is built and tested.
 */
import type { TSchema } from '@sinclair/typebox';
import { API_VERSION } from '../config';
import { statusOf, type ErrorCode } from '../errors';
import { eventCatalog, eventNames } from '../events/catalog';
import { CODE_MISSES_PER_HOUR } from '../domain/rateWindow';
import { routes, type Route } from '../routes';
import { MAX_PAGED_ITEMS } from '../schemas/common';
import { tagDescriptions } from './tags';

export type Json = Record<string, unknown>;

/** TypeBox schemas are JSON Schema with symbol keys; the description holds only the JSON. */
const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;

/**
 * Named schemas: a schema with a `title` (an entity: `Location`, `ApiKey` …) goes once into
 * `components.schemas` under it, and each place that uses it refers to it. Two different schemas
 * with one title stay inline and are listed in `conflicts` (a unit test fails on any).
 */
class Named {
  readonly schemas: Record<string, Json> = {};
  readonly conflicts = new Set<string>();

  /** The plain schema with its titled parts replaced by references. */
  use(schema: TSchema): Json {
    return this.hoist(plain(schema)) as Json;
  }

  private hoist(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.hoist(n));
    if (!node || typeof node !== 'object') return node;
    const out = Object.fromEntries(
      Object.entries(node as Json).map(([k, v]) => [
        k,
        k === 'examples' || k === 'default' || k === 'const' ? v : this.hoist(v),
      ]),
    );
    const title = out.title;
    if (typeof title !== 'string' || !/^[A-Za-z0-9._-]+$/.test(title)) return out;
    const known = this.schemas[title];
    if (known === undefined) this.schemas[title] = out;
    else if (JSON.stringify(known) !== JSON.stringify(out)) {
      this.conflicts.add(title);
      return out;
    }
    return ref(title);
  }
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** A paged list takes `limit` and `cursor` (shared/schemas/common.ts `pageQuery`) and answers `meta.pagination`. */
export const isPaged = (route: Route): boolean => {
  const props = (route.schemas.query as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return 'limit' in props && 'cursor' in props;
};

/** A probe's, a document's, a file's or a page's answer is its own body; every other 200 is the success envelope around `data`. */
export const isEnveloped = (route: Route): boolean => !route.probe && !route.bare && !route.download && !route.asset;

/** "listApiKeys" → "List API keys": the summary of a row that gives none. */
export const summaryOf = (route: Route): string => {
  if (route.summary) return route.summary;
  const words = route.operationId
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\bapi\b/g, 'API');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const writes = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error answers an operation can give, by code (docs/api.md). 405 belongs to
 * no operation (the fallback answers it), 500 to every one (the `default` answer). The API suite's
 * answer check fails on a status an operation gives that is not here (test/support/answers.ts).
 */
export function errorCodesOf(route: Route): ErrorCode[] {
  // a probe is never refused, but a credential that is sent is still verified
  if (route.probe) return ['UNAUTHENTICATED'];
  const codes: ErrorCode[] = [];
  const write = writes.has(route.method);
  const hasSchema =
    route.schemas.body !== undefined || route.schemas.query !== undefined || route.schemas.path !== undefined;
  if (hasSchema || write) codes.push('VALIDATION_FAILED');
  codes.push('UNAUTHENTICATED'); // a public operation still verifies a credential that is sent
  if (route.permission !== null) codes.push('FORBIDDEN');
  if (route.path.startsWith('/api/')) codes.push('NOT_FOUND');
  if (write) codes.push('CONFLICT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  // a write may break a business rule; so may a read's query (an availability date out of the booking window)
  if (write || route.schemas.query !== undefined) codes.push('UNPROCESSABLE');
  codes.push('RATE_LIMITED', 'UNAVAILABLE');
  for (const code of route.errors ?? []) if (!codes.includes(code)) codes.push(code);
  return codes;
}

const codeNames = Object.keys(statusOf) as ErrorCode[];

const errorWhen: Record<ErrorCode, string> = {
  VALIDATION_FAILED:
    "The body, query or path does not match its schema, the JSON is malformed, or a cursor is not this list's; `details` names each field by JSON pointer.",
  UNAUTHENTICATED: 'No credential, or an unknown, revoked or malformed key, or a bad or expired token.',
  FORBIDDEN: "The credential lacks the permission, or the location is not one of the key's.",
  NOT_FOUND: "An id of the path or body names nothing of the caller's company.",
  METHOD_NOT_ALLOWED: 'The path exists, the method does not (the `Allow` header lists the methods).',
  CONFLICT:
    'A state or version conflict, a duplicate, or a request with the same Idempotency-Key still running (then with `Retry-After`).',
  PAYLOAD_TOO_LARGE: 'The body is over 256 KiB.',
  UNSUPPORTED_MEDIA_TYPE: 'The body is not JSON (`application/json`, a `+json` type, any charset).',
  UNPROCESSABLE: 'Well-formed, but breaks a business rule; or an Idempotency-Key reused with another request.',
  RATE_LIMITED: 'The hourly request limit is used up: retry after `Retry-After` seconds. Nothing was written.',
  UNAVAILABLE: 'A dependency (the database, the credential check) is unavailable or overloaded: retry shortly.',
  INTERNAL: 'Anything else; logged with the request id.',
};

/** The error envelope with its code fixed: `#/components/schemas/Error_<CODE>`. */
const errorSchemaName = (code: ErrorCode) => `Error_${code}`;

const rateLimitHeaders = {
  'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': headerRef('X-RateLimit-Reset'),
  'X-Request-Id': headerRef('X-Request-Id'),
};

function errorResponse(code: ErrorCode): Json {
  const headers: Json = { ...rateLimitHeaders };
  if (code === 'RATE_LIMITED' || code === 'CONFLICT' || code === 'UNAVAILABLE')
    headers['Retry-After'] = headerRef('Retry-After');
  if (code === 'METHOD_NOT_ALLOWED')
    headers.Allow = { description: 'The methods the path allows', schema: { type: 'string' } };
  return {
    description: `${code}: ${errorWhen[code]}`,
    headers,
    content: { 'application/json': { schema: ref(errorSchemaName(code)) } },
  };
}

function successSchema(route: Route, named: Named): Json {
  const data = route.schemas.response ? named.use(route.schemas.response) : {};
  if (!isEnveloped(route)) return data;
  return {
    type: 'object',
    required: ['status', 'data', 'meta'],
    additionalProperties: false,
    properties: { status: { const: 'success' }, data, meta: ref(isPaged(route) ? 'PagedMeta' : 'Meta') },
  };
}

function parameters(route: Route): Json[] {
  const out: Json[] = [];
  for (const part of ['path', 'query'] as const) {
    const schema = route.schemas[part] ? plain(route.schemas[part]) : undefined;
    if (!schema) continue;
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = property;
      // a query parameter with a default may be left out: the default is what the operation reads then
      out.push({
        name,
        in: part,
        required: part === 'path' || (required.has(name) && rest.default === undefined),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  if (route.method === 'POST') out.push({ $ref: '#/components/parameters/Idempotency-Key' });
  return out;
}

function requestBody(route: Route, named: Named): Json | undefined {
  if (!route.schemas.body) return undefined;
  const schema = plain(route.schemas.body);
  const [example] = (schema.examples ?? []) as unknown[];
  const required = Array.isArray(schema.required) && schema.required.length > 0;
  return {
    required,
    content: {
      'application/json': { schema: named.use(route.schemas.body), ...(example !== undefined ? { example } : {}) },
    },
  };
}

function operation(route: Route, named: Named): Json {
  const permission = route.permission;
  const access =
    permission === null
      ? 'Public: no credential needed (one that is sent is still verified).'
      : `Permission: \`${permission}\`.`;
  const paged = isPaged(route)
    ? ` A paged list: \`page\` × \`limit\` at most ${MAX_PAGED_ITEMS}; read further with \`cursor\` (\`meta.pagination.nextCursor\`).`
    : '';
  const guessing = route.byCode
    ? ` Counted in the client IP's window at the standard tier whatever credential is sent; after ${CODE_MISSES_PER_HOUR} lookups of unknown codes from one address in an hour, every by-code request from it answers 429 until the hour ends.`
    : '';
  const description = [route.description, `${access}${paged}${guessing}`].filter(Boolean).join('\n\n');
  const success: Json = route.asset
    ? {
        description: `The ${route.asset.mediaType === 'text/html' ? 'page' : 'file'} itself (${route.asset.mediaType}, UTF-8)`,
        headers: { ...rateLimitHeaders },
        content: { [route.asset.mediaType]: { schema: { type: 'string' } } },
      }
    : route.download
      ? {
          description: 'A file (its bytes), to save under the name Content-Disposition gives',
          headers: {
            ...rateLimitHeaders,
            'Content-Disposition': { description: 'attachment; filename="…"', schema: { type: 'string' } },
          },
          content: Object.fromEntries(
            route.download.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
          ),
        }
      : {
          description: route.probe ? "The probe's answer (503 with the same shape when unhealthy)" : 'Success',
          headers: {
            ...rateLimitHeaders,
            ...(route.method === 'POST' ? { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') } : {}),
          },
          content: { 'application/json': { schema: successSchema(route, named) } },
        };
  const responses: Json = { '200': success };
  for (const code of errorCodesOf(route))
    responses[String(statusOf[code])] = { $ref: `#/components/responses/${code}` };
  if (route.probe && route.operationId !== 'live')
    responses['503'] = { ...success, description: 'Unhealthy: the same shape, status `unhealthy`' };
  responses.default = { $ref: '#/components/responses/INTERNAL' };
  const body = requestBody(route, named);
  return {
    operationId: route.operationId,
    summary: summaryOf(route),
    description,
    tags: [route.area],
    'x-permission': permission,
    security: permission === null ? [] : [{ ApiKey: [] }, { BearerJwt: [] }],
    parameters: parameters(route),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** Every path of the table in OpenAPI's `{param}` form (the table already uses it). */
function paths(all: readonly Route[], named: Named): Json {
  const out: Record<string, Json> = {};
  for (const route of all) (out[route.path] ??= {})[route.method.toLowerCase()] = operation(route, named);
  return out;
}

const FieldProblem = {
  type: 'object',
  required: ['path', 'message'],
  additionalProperties: false,
  properties: {
    path: { type: 'string', description: 'JSON pointer into the body, query or path' },
    message: { type: 'string' },
  },
};

const Meta = {
  type: 'object',
  required: ['requestId'],
  additionalProperties: false,
  properties: { requestId: { type: 'string' } },
};

/** The error envelope with `error.code` as `code` says (a `const` per status). The API suite checks the fallback's answers with it too. */
export const errorEnvelope = (code: Json): Json => ({
  type: 'object',
  required: ['status', 'error', 'meta'],
  additionalProperties: false,
  properties: {
    status: { const: 'error' },
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      additionalProperties: false,
      properties: { code, message: { type: 'string' }, details: { type: 'array', items: ref('FieldProblem') } },
    },
    meta: ref('Meta'),
  },
});

const webhookHeaders = [
  { name: 'webhook-id', description: "the delivery id (the body's `id`)", schema: { type: 'string', format: 'uuid' } },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt', schema: { type: 'integer' } },
  {
    name: 'webhook-signature',
    description:
      '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per secret during a rotation, space-separated',
    schema: { type: 'string' },
  },
];

/**
 * The components: only what the document refers to (its lint refuses unused ones). `answered` are
 * the error codes some operation answers (`INTERNAL`, the `default`, always): 405 belongs to no
 * operation, so it is told in `info.description` instead.
 */
function components(named: Named, answered: readonly ErrorCode[]): Json {
  const schemas: Json = {
    ...named.schemas,
    FieldProblem,
    Meta,
    Pagination: {
      type: 'object',
      required: ['page', 'limit', 'total', 'totalPages', 'nextCursor'],
      additionalProperties: false,
      properties: {
        page: { type: 'integer', minimum: 1 },
        limit: { type: 'integer', minimum: 1 },
        total: {
          type: 'integer',
          minimum: 0,
          description: 'items the list holds (for a list filtered after reading: those read so far)',
        },
        totalPages: { type: 'integer', minimum: 0 },
        nextCursor: { type: ['string', 'null'], description: 'pass as `cursor` for the next page; null on the last' },
      },
    },
    PagedMeta: {
      type: 'object',
      required: ['requestId', 'pagination'],
      additionalProperties: false,
      properties: { requestId: { type: 'string' }, pagination: ref('Pagination') },
    },
    WebhookEvent: {
      type: 'object',
      required: ['id', 'eventId', 'event', 'resource', 'resourceId', 'timestamp', 'apiVersion', 'data', 'changes'],
      additionalProperties: false,
      properties: {
        id: {
          type: 'string',
          format: 'uuid',
          description:
            'the delivery id: one per event and subscription, equal to the `webhook-id` header; deduplicate on it',
        },
        eventId: {
          type: 'string',
          format: 'uuid',
          description: "the event's id, its `id` in the event log (GET /api/v1/events)",
        },
        event: { type: 'string', enum: eventNames },
        resource: { type: 'string' },
        resourceId: { type: 'string' },
        timestamp: { type: 'string', format: 'date-time' },
        apiVersion: { type: 'string', const: API_VERSION },
        data: { type: 'object', description: 'the resource as the event recorded it' },
        changes: { type: ['object', 'null'], description: 'the changed fields of an update, else null' },
      },
    },
  };
  for (const code of answered) schemas[errorSchemaName(code)] = errorEnvelope({ const: code });
  const intHeader = (description: string) => ({ description, schema: { type: 'integer' } });
  return {
    schemas,
    responses: Object.fromEntries(answered.map((code) => [code, errorResponse(code)])),
    parameters: {
      'Idempotency-Key': {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'A new UUID per logical request: a repeat answers the first answer again (24 h), the same key with another request 422, while the first still runs 409.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
      ...Object.fromEntries(webhookHeaders.map((h) => [h.name, { ...h, in: 'header', required: true }])),
    },
    headers: {
      'X-RateLimit-Limit': intHeader('Requests allowed in the current hourly window'),
      'X-RateLimit-Remaining': intHeader('Requests left in the current window'),
      'X-RateLimit-Reset': intHeader('Unix seconds when the current window ends'),
      'X-Request-Id': { description: 'The request id, also `meta.requestId`', schema: { type: 'string' } },
      'Retry-After': intHeader('Seconds to wait before trying again'),
      'Idempotent-Replayed': {
        description: '`true` when the answer is the replay of an earlier request with the same Idempotency-Key',
        schema: { type: 'string', const: 'true' },
      },
    },
    securitySchemes: {
      ApiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: '`brigade_<env>_<keyId>_<secret>`; rate-limited per key by its tier',
      },
      BearerJwt: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: "claims `sub`, `cid`, `perms`, `exp`, and the stage's `iss` and `aud`",
      },
    },
  };
}

/** Each event of the catalog as an OpenAPI 3.1 webhook: what a subscribed URL receives. */
function webhooks(): Json {
  return Object.fromEntries(
    eventNames.map((event) => [
      event,
      {
        post: {
          operationId: `webhook:${event}`,
          summary: `${event} (resource ${eventCatalog[event]})`,
          tags: ['webhooks'],
          // No credential is sent to the receiver: it checks the `webhook-signature` header (docs/webhooks.md).
          security: [],
          parameters: webhookHeaders.map((h) => ({ $ref: `#/components/parameters/${h.name}` })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  allOf: [
                    ref('WebhookEvent'),
                    { properties: { event: { const: event }, resource: { const: eventCatalog[event] } } },
                  ],
                },
              },
            },
          },
          responses: {
            '2XX': {
              description: 'Received; any other answer (or none within the timeout) is retried for about 28 hours',
            },
          },
        },
      },
    ]),
  );
}

/** Titles two different schemas share (they stay inline); a unit test expects none. */
export function titleConflicts(all: readonly Route[] = routes): string[] {
  const named = new Named();
  paths(all, named);
  return [...named.conflicts];
}

/** The whole document. */
export function openApiDocument(all: readonly Route[] = routes): Json {
  const areas = [...new Set(all.map((r) => r.area))];
  const named = new Named();
  const described = paths(all, named);
  const answered = codeNames.filter(
    (code) => code === 'INTERNAL' || all.some((route) => errorCodesOf(route).includes(code)),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Brigade API',
      version: API_VERSION,
      description:
        'Restaurant operations: bookings, waitlists, tables, guests, tabs, menus, schedules, printing and signed webhooks. ' +
        'Every success answer is `{status: "success", data, meta: {requestId}}` with status 200 (lists add `meta.pagination`); every error ' +
        '`{status: "error", error: {code, message, details}, meta: {requestId}}`. Every answer carries the `X-RateLimit-*` headers. ' +
        'A method a path does not have answers 405 `METHOD_NOT_ALLOWED`, its `Allow` header listing the methods it has. ' +
        '`info.version` is the `apiVersion` of every webhook payload.',
      contact: { name: 'The Brigade API team' },
    },
    servers: [{ url: '.', description: 'the stage that serves this document' }],
    tags: areas.map((name) => ({ name, ...(tagDescriptions[name] ? { description: tagDescriptions[name] } : {}) })),
    paths: described,
    webhooks: webhooks(),
    components: components(named, answered),
  };
}

/** The document as served and written: the same bytes everywhere. */
export const openApiJson = (all: readonly Route[] = routes): string => JSON.stringify(openApiDocument(all));
