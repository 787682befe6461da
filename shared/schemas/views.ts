/**
 * Building blocks of the response schemas (a route row's `schemas.response`: the `data` of its 200
 * answer, exactly as sent). Documentation and the API tests' answer check read them; no handler
 * validates an answer with them.
 */
import { Type, type TLiteral, type TProperties, type TUnion } from './typebox';

/** An object of an answer: exactly these fields (a field the schema does not name is a mismatch). */
export const view = <T extends TProperties>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

/**
 * A named object of answers (a resource: `Booking`, `Order` …): the OpenAPI description lists it
 * once under its title and refers to it. One title, one schema: a schema derived from a titled one
 * (`Type.Pick`, `Type.Omit` keep the title) needs a title of its own.
 */
export const entity = <T extends TProperties>(title: string, properties: T, description?: string) =>
  Type.Object(properties, { title, additionalProperties: false, ...(description ? { description } : {}) });

/** A moment as the API writes it: ISO 8601 in UTC (`Date#toISOString`). */
export const Instant = Type.String({ format: 'date-time', description: 'ISO 8601 instant, UTC' });

/** The optimistic-concurrency version of a stored resource: 1 when created, one more with each change. */
const Version = Type.Integer({ minimum: 1, description: 'one more with each change' });

/** What every versioned resource answers beside its own fields. */
export const stamps = { version: Version, createdAt: Instant, updatedAt: Instant };

/** One of these strings (a status, a kind), as a union of literals. */
export const literals = <const T extends string>(values: readonly T[], description?: string): TUnion<TLiteral<T>[]> =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );
