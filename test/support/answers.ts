/**
 * Checks an answer of the local stage against the OpenAPI description (shared/openapi/document.ts),
 * so the description cannot drift from what the API sends: the status must be one the operation
 * describes; a success answer must match its envelope with the row's `schemas.response` as `data`
 * (and `meta.pagination` exactly when the list is paged); an error answer must be the error
 * envelope with the code its status stands for (shared/errors.ts); every answer is JSON with the
 * rate-limit and request-id headers. Two callers:
 *
 * - `call` (http.ts) throws on a problem, naming the operation, in the test that got the answer;
 * - the API suite's stage records every answer it serves, however it was requested
 *   (answer-log.ts): the counts per operation, and any problem, which api-coverage fails on.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { statusOf, type ErrorCode } from '../../shared/errors';
import { matchRoute } from '../../shared/http/router';
import { errorEnvelope, openApiDocument, type Json } from '../../shared/openapi/document';

const document = openApiDocument() as Json & {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components: { schemas: Record<string, Json> };
};
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
// The fallback answers codes no operation does (405): the document holds only the envelopes it
// refers to, so the check adds the others, built as the document builds its own.
const withEveryError = structuredClone(document);
for (const code of Object.keys(statusOf) as ErrorCode[])
  withEveryError.components.schemas[`Error_${code}`] ??= errorEnvelope({ const: code });
ajv.addSchema(withEveryError, 'openapi.json');
const compiled = new Map<string, ValidateFunction>();

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
function validator(path: string): ValidateFunction {
  let validate = compiled.get(path);
  if (!validate) compiled.set(path, (validate = ajv.compile({ $ref: `openapi.json#/${path}` })));
  return validate;
}

const codeOfStatus = new Map(Object.entries(statusOf).map(([code, status]) => [status, code as ErrorCode]));
const requiredHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id'];

export interface Checked {
  /** operationId, or `fallback` for an answer no row gave. */
  operation: string;
  /** Whether `data` had a response schema to match (false: only the envelope was checked). */
  typed: boolean;
  /** What does not match the description; empty when it all does. */
  problems: string[];
}

/** Checks one answer; `headers` by lower-case name. A body that is not JSON is given as its text. */
export function checkAnswer(
  method: string,
  url: string,
  status: number,
  headers: Record<string, string | undefined>,
  body: unknown,
): Checked {
  // A browser's preflight answered by the edge, as the gateway's MOCK OPTIONS methods answer it
  // (infra/cors.ts, shared/http/cors.ts): no function runs, so it counts nothing and has no body.
  if (method === 'OPTIONS' && status === 204) {
    const problems = ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers']
      .filter((name) => headers[name] === undefined)
      .map((name) => `the preflight's ${name} header is missing`);
    if (typeof body === 'string' ? body.length > 0 : body !== undefined) problems.push('a preflight answer has a body');
    return { operation: 'preflight', typed: false, problems };
  }
  const match = matchRoute(method, new URL(url).pathname);
  const operation = match.kind === 'route' ? match.route.operationId : 'fallback';
  const problems: string[] = [];
  let typed = false;
  for (const name of requiredHeaders) if (headers[name] === undefined) problems.push(`the ${name} header is missing`);
  // A page or its script (the docs page): text in the media type its row names, as it is.
  if (match.kind === 'route' && match.route.asset && status === 200) {
    const type = (headers['content-type'] ?? '').split(';')[0]!.trim();
    if (type !== match.route.asset.mediaType)
      problems.push(`Content-Type is ${headers['content-type']}, not ${match.route.asset.mediaType}`);
    if (typeof body !== 'string' || body.length === 0)
      problems.push('the answer is empty, or JSON where a page or a script was described');
    return { operation, typed: false, problems };
  }
  // A file download's success is its bytes in a media type its row names, sent as an attachment.
  if (match.kind === 'route' && match.route.download && status === 200) {
    const type = (headers['content-type'] ?? '').split(';')[0]!.trim();
    if (!match.route.download.mediaTypes.includes(type))
      problems.push(
        `Content-Type is ${headers['content-type']}, not one of ${match.route.download.mediaTypes.join(', ')}`,
      );
    if (!/^attachment; filename=/.test(headers['content-disposition'] ?? ''))
      problems.push(`Content-Disposition is ${headers['content-disposition']}, not an attachment naming its file`);
    return { operation, typed: false, problems };
  }
  if (!/^application\/json\b/.test(headers['content-type'] ?? ''))
    problems.push(`Content-Type is ${headers['content-type']}, not application/json`);
  let schemaPath: string | undefined;
  if (match.kind === 'route') {
    const { route } = match;
    const responses = document.paths[route.path]![route.method.toLowerCase()]!.responses;
    const described = responses[String(status)] ?? (status === 500 ? responses.default : undefined);
    if (!described) problems.push(`status ${status} is not one the description gives ${route.method} ${route.path}`);
    else if (typeof described.$ref === 'string')
      schemaPath = `components/schemas/Error_${described.$ref.split('/').pop()}`;
    else {
      schemaPath = pointer(
        'paths',
        route.path,
        route.method.toLowerCase(),
        'responses',
        String(status),
        'content',
        'application/json',
        'schema',
      );
      typed = route.schemas.response !== undefined;
    }
  } else {
    const code = codeOfStatus.get(status);
    if (code) schemaPath = `components/schemas/Error_${code}`;
    else problems.push(`the fallback answered ${status}, which no error code stands for`);
  }
  if (schemaPath) {
    const validate = validator(schemaPath);
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
      problems.push(`the ${status} answer does not match its description:\n  ${errors.join('\n  ')}`);
    }
  }
  return { operation, typed, problems };
}

/** For `call`: throws when the answer does not match, naming the operation and the first mismatches. */
export function assertAnswer(method: string, url: string, status: number, headers: Headers, body: unknown): void {
  const { operation, problems } = checkAnswer(method, url, status, Object.fromEntries(headers), body);
  if (problems.length) throw new Error(`${operation} (${method} ${new URL(url).pathname}): ${problems.join('; ')}`);
}
