/**
 * JSON Schema as the fuzz reads it: the route table's TypeBox schemas are JSON Schema, so the
 * fuzz walks them as plain JSON (no TypeBox API): which types a schema admits, its bounds, and a
 * valid value of it (`validValue`), for a field an example leaves out or a query parameter a
 * request must send.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { TEXT_PATTERNS } from '../../../shared/schemas/patterns';

const textPatterns = new Set<string>(Object.values(TEXT_PATTERNS));

/** A JSON Schema node as the route table's TypeBox schemas serialize: the keywords the fuzzer reads, typed. */
export interface Json {
  type?: unknown;
  format?: unknown;
  pattern?: unknown;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  items?: Json;
  properties?: Record<string, Json>;
  required?: string[];
  anyOf?: Json[];
  oneOf?: Json[];
  default?: unknown;
  [keyword: string]: unknown;
}

/** The schema without TypeBox's symbol keys. */
export const plain = (schema: TSchema | Json): Json => JSON.parse(JSON.stringify(schema)) as Json;

/** The branches of a union (TypeBox `Union`, `Nullable`), or the schema itself. */
export const branches = (schema: Json): Json[] =>
  (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [schema]) as Json[];

const isNull = (schema: Json) => schema.type === 'null';
export const nullable = (schema: Json) => branches(schema).some(isNull);

/** The JSON type of a value, as JSON Schema names it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The type a schema (not a union) stands for. */
export function typeOf(schema: Json): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (schema.const !== undefined) return jsonType(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return jsonType(schema.enum[0]);
  if (schema.properties) return 'object';
  return undefined;
}

/** The branch of a union a value stands in (the first that is not null when there is no value). */
export function branchFor(schema: Json, value: unknown): Json {
  const all = branches(schema);
  if (all.length === 1) return all[0]!;
  const t = value === undefined ? undefined : jsonType(value);
  const byType = all.find(
    (b) =>
      t !== undefined &&
      (typeOf(b) === t || (typeOf(b) === 'number' && t === 'integer')) &&
      (b.const === undefined || b.const === value),
  );
  return byType ?? all.find((b) => !isNull(b)) ?? all[0]!;
}

/** Literal values a schema lists (enum, const, a union of consts). */
export function literals(schema: Json): unknown[] {
  const out: unknown[] = [];
  for (const b of branches(schema)) {
    if (b.const !== undefined) out.push(b.const);
    if (Array.isArray(b.enum)) out.push(...(b.enum as unknown[]));
  }
  return out;
}

/** Days from today, as the API's local dates (never a literal date: docs/testing.md). */
const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** One string matching a pattern (fast-check's regex generator, seeded: the same string each run). */
function matching(pattern: string, seed: number): string | undefined {
  try {
    const re = new RegExp(pattern, 'u');
    const [s] = fc.sample(fc.stringMatching(re), { seed, numRuns: 1 });
    return s !== undefined && re.test(s) ? s : undefined;
  } catch {
    return undefined;
  }
}

const formatValue: Record<string, () => string> = {
  date: () => dayAhead(10),
  'date-time': () => new Date(Date.now() + 10 * 86_400_000).toISOString(),
  time: () => '19:00:00Z',
  uuid: () => randomUUID(),
  email: () => 'fuzz.guest@example.com',
  uri: () => 'https://example.com/fuzz-hook',
};

/**
 * A value the schema accepts: its default, example or const where it has one, else the least
 * value of its type within its bounds; objects with their required properties only. `n` varies
 * the values (array items that must be unique).
 */
export function validValue(schema: Json, n = 0): unknown {
  const s = branchFor(schema, undefined);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[n % s.enum.length];
  if (s.default !== undefined && n === 0) return s.default;
  if (Array.isArray(s.examples) && s.examples.length && n === 0) return s.examples[0];
  switch (typeOf(s)) {
    case 'integer':
    case 'number': {
      const min =
        typeof s.minimum === 'number'
          ? s.minimum
          : typeof s.exclusiveMinimum === 'number'
            ? Math.floor(s.exclusiveMinimum) + 1
            : 1;
      const max = typeof s.maximum === 'number' ? s.maximum : Number.MAX_SAFE_INTEGER;
      return Math.min(Math.max(min, 1) + n, max);
    }
    case 'boolean':
      return n % 2 === 0;
    case 'null':
      return null;
    case 'string': {
      if (typeof s.format === 'string' && formatValue[s.format]) return formatValue[s.format]!();
      // Text (no control characters, shared/schemas/text.ts) takes the plain value below; a generated one could be blank.
      if (typeof s.pattern === 'string' && s.pattern !== '\\S' && !textPatterns.has(s.pattern)) {
        const m = matching(s.pattern, 1000 + n);
        if (m !== undefined) return m;
      }
      const len = Math.max(s.minLength ?? 1, 1);
      return `fuzz${n}`.padEnd(len, 'z').slice(0, Math.max(len, Math.min(s.maxLength ?? 8, 8)));
    }
    case 'array': {
      const count = s.minItems ?? 0;
      return Array.from({ length: count }, (_, i) => validValue(s.items ?? {}, n + i));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of (s.required ?? []) as string[]) out[k] = validValue(s.properties?.[k] ?? {}, n);
      return out;
    }
    default:
      return 'fuzz';
  }
}
