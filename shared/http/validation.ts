/**
 * Joins a route's precompiled validators (in shared/http/operations/<operationId>.ts, generated
 * from the route table's TypeBox schemas by `npm run gen:operations`) into the one function
 * @middy/validator calls. Query and path validators coerce strings and fill defaults; the body
 * validator does not coerce.
 */
import type { ErrorObject } from 'ajv';
import type { FieldProblem } from '../errors';
import { FORMAT_WORDS, PATTERN_WORDS } from '../schemas/patterns';
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

/** A field's place as a JSON pointer: a missing or unknown property is named itself. */
function pathOf(e: ErrorObject): string {
  const p = e.params as { missingProperty?: string; additionalProperty?: string };
  if (e.keyword === 'required') return `${e.instancePath}/${p.missingProperty}`;
  if (e.keyword === 'additionalProperties') return `${e.instancePath}/${p.additionalProperty}`;
  return e.instancePath || '/';
}

const typeWords = (type: unknown) =>
  String(type)
    .split(',')
    .map((t) => (t === 'integer' ? 'an integer' : t === 'array' || t === 'object' ? `an ${t}` : `a ${t}`))
    .join(' or ');

/** The rule a field breaks, in words: never the regular expression or ajv's keyword. */
function wordsOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not an accepted field';
    case 'pattern':
      return PATTERN_WORDS[p.pattern as string] ?? 'is not in the accepted form';
    case 'format':
      return FORMAT_WORDS[p.format as string] ?? `must be a valid ${String(p.format)}`;
    case 'type':
      return `must be ${typeWords(p.type)}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `must be more than ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters long`;
    case 'minItems':
      return `must hold at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must hold at most ${String(p.limit)} items`;
    case 'uniqueItems':
      return `must not hold the same item twice (items ${String(p.j)} and ${String(p.i)} are equal)`;
    case 'minProperties':
      return `must name at least ${String(p.limit)} field${p.limit === 1 ? '' : 's'}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    default:
      return e.message ?? 'is not valid';
  }
}

/** What a union adds to its branches' errors: that none matched, and the null branch's "must be null". */
const unionNoise = (e: ErrorObject) =>
  e.keyword === 'anyOf' ||
  e.keyword === 'oneOf' ||
  (e.keyword === 'type' && (e.params as { type?: unknown }).type === 'null');

/**
 * One problem per field, in words. A union (a nullable field, a choice of values) fails with an
 * error per branch and one for itself: they become one (the values of a choice listed, "or null"
 * where null was the other branch), and a field that breaks several rules is answered with the first.
 */
function problems(errors: ErrorObject[] | null | undefined): FieldProblem[] {
  const list = errors ?? [];
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of list) {
    const path = pathOf(e);
    byPath.set(path, [...(byPath.get(path) ?? []), e]);
  }
  const found: FieldProblem[] = [];
  for (const [path, own] of byPath) {
    const inner = [...byPath.keys()].some(
      (other) => other !== path && other.startsWith(path === '/' ? '/' : `${path}/`),
    );
    const real = own.filter((e) => !unionNoise(e));
    if (real.length === 0) {
      // Only a union's own complaint: the branch errors name fields inside this one, or none is left to say more.
      if (!inner) found.push({ path, message: 'is not valid' });
      continue;
    }
    const nullable = own.some((e) => e.keyword === 'type' && (e.params as { type?: unknown }).type === 'null');
    const consts = real.filter((e) => e.keyword === 'const');
    if (consts.length > 1) {
      const values = consts.map((e) => JSON.stringify((e.params as { allowedValue?: unknown }).allowedValue));
      found.push({ path, message: `must be one of ${values.join(', ')}${nullable ? ' or null' : ''}` });
      continue;
    }
    // A format says more than a pattern beside it (a date's "YYYY-MM-DD" and its year's bound).
    const first = real.find((e) => e.keyword === 'format') ?? real[0]!;
    found.push({ path, message: `${wordsOf(first)}${nullable && first.keyword === 'type' ? ' or null' : ''}` });
  }
  return found;
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
