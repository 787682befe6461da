/**
 * Joins a route's precompiled validators (in shared/http/operations/<operationId>.ts, generated
 * from the route table's TypeBox schemas by `npm run gen:operations`) into the one function
 * @middy/validator calls. Query and path validators coerce strings and fill defaults; the body
 * validator does not coerce.
 */
import type { ErrorObject } from 'ajv';
import type { FieldProblem } from '../errors';
import { pageDepthProblem } from '../page';

/** An ajv validate function, as the generated modules export them. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** The exports of a generated validator module. */
export interface RouteValidators {
  path?: CompiledValidator;
  query?: CompiledValidator;
  body?: CompiledValidator;
}

export interface EventValidator {
  (event: { body?: unknown; queryStringParameters?: unknown; pathParameters?: unknown }): boolean;
  errors: FieldProblem[] | null;
}

function problems(errors: ErrorObject[] | null | undefined): FieldProblem[] {
  return (errors ?? []).map((e) => {
    const p = e.params as { missingProperty?: string; additionalProperty?: string };
    if (e.keyword === 'required') return { path: `${e.instancePath}/${p.missingProperty}`, message: 'is required' };
    if (e.keyword === 'additionalProperties')
      return { path: `${e.instancePath}/${p.additionalProperty}`, message: 'is not an accepted field' };
    return { path: e.instancePath || '/', message: e.message ?? 'is not valid' };
  });
}

/**
 * DynamoDB stores a number when it is 0 or its magnitude lies between 1e-130 and 1e126 (and has at
 * most 38 significant digits, which a JavaScript number never exceeds). A schema bounds a field's
 * range, not how small a fraction may get: `5e-324` is between 0 and 100, and its write failed
 * (a 500, found by the fuzz). So every number of a body is checked here, whatever its field.
 */
const STORABLE_MIN = 1e-130;
const STORABLE_MAX = 1e126;

/** The body's numbers DynamoDB could not store, by JSON pointer. */
function unstorableNumbers(value: unknown, path = ''): FieldProblem[] {
  if (typeof value === 'number') {
    const size = Math.abs(value);
    return value === 0 || (size >= STORABLE_MIN && size < STORABLE_MAX)
      ? []
      : [{ path: path || '/', message: `must be 0 or between ${STORABLE_MIN} and ${STORABLE_MAX} in magnitude` }];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => unstorableNumbers(v, `${path}/${i}`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) =>
      unstorableNumbers(v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`),
    );
  return [];
}

export function eventValidator(validators: RouteValidators): EventValidator | undefined {
  const parts = (
    [
      ['pathParameters', validators.path],
      ['queryStringParameters', validators.query],
      ['body', validators.body],
    ] as const
  ).filter((p): p is [(typeof p)[0], CompiledValidator] => p[1] !== undefined);
  if (parts.length === 0) return undefined;

  const validate = ((event) => {
    const found: FieldProblem[] = [];
    for (const [part, check] of parts) {
      if (part === 'body' && event.body === undefined) {
        // No body is an empty one when the schema requires nothing (cancel, seat, …).
        const empty = {};
        if (check(empty)) event.body = empty;
        else found.push({ path: '/', message: 'a JSON body is required' });
      } else if (!check(event[part])) found.push(...problems(check.errors));
      else if (part === 'body') found.push(...unstorableNumbers(event.body));
      else if (part === 'queryStringParameters') {
        // Every list's `page` × `limit` bound, which its schema cannot state (shared/page.ts).
        const deep = pageDepthProblem(event[part] as Record<string, unknown>);
        if (deep) found.push(deep);
      }
    }
    validate.errors = found.length ? found : null;
    return found.length === 0;
  }) as EventValidator;
  validate.errors = null;
  return validate;
}
