/**
 * Compiles a route's TypeBox schemas once per container into the one function @middy/validator
 * calls. Query and path values arrive as strings, so they are coerced; JSON bodies are not (a
 * string "5" is not a number 5 there). Defaults (page, limit, …) are filled in.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { RouteSchemas } from '../routes';
import type { FieldProblem } from '../errors';

// ajv-formats is CommonJS; under ESM its default export may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

const options = { allErrors: true, useDefaults: true, strict: false } as const;
let strictAjv: Ajv | undefined;
let coercingAjv: Ajv | undefined;
const strict = () => (strictAjv ??= addFormats(new Ajv({ ...options, coerceTypes: false })));
const coercing = () => (coercingAjv ??= addFormats(new Ajv({ ...options, coerceTypes: true })));

export interface EventValidator {
  (event: { body?: unknown; queryStringParameters?: unknown; pathParameters?: unknown }): boolean;
  errors: FieldProblem[] | null;
}

function problems(errors: ErrorObject[] | null | undefined): FieldProblem[] {
  return (errors ?? []).map((e) => {
    const p = e.params as { missingProperty?: string; additionalProperty?: string };
    if (e.keyword === 'required') return { path: `${e.instancePath}/${p.missingProperty}`, message: 'is required' };
    if (e.keyword === 'additionalProperties') return { path: `${e.instancePath}/${p.additionalProperty}`, message: 'is not an accepted field' };
    return { path: e.instancePath || '/', message: e.message ?? 'is not valid' };
  });
}

export function compileEventValidator(schemas: RouteSchemas): EventValidator | undefined {
  if (!schemas.body && !schemas.query && !schemas.path) return undefined;
  const parts: [keyof Parameters<EventValidator>[0], ValidateFunction][] = [];
  if (schemas.path) parts.push(['pathParameters', coercing().compile(schemas.path)]);
  if (schemas.query) parts.push(['queryStringParameters', coercing().compile(schemas.query)]);
  if (schemas.body) parts.push(['body', strict().compile(schemas.body)]);

  const validate = ((event) => {
    const found: FieldProblem[] = [];
    for (const [part, check] of parts) {
      if (part === 'body' && event.body === undefined) found.push({ path: '/', message: 'a JSON body is required' });
      else if (!check(event[part])) found.push(...problems(check.errors));
    }
    validate.errors = found.length ? found : null;
    return found.length === 0;
  }) as EventValidator;
  validate.errors = null;
  return validate;
}
