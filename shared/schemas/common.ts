import { Type, type TSchema } from './typebox';
import { Line } from './text';

/** UUID v4 ids (bookings, tabs, coursings, tables, …). */
export const Uuid = Type.String({ format: 'uuid', description: 'UUID' });

/** Numeric ids (companies, locations, users, …); path and query values are coerced from strings. */
export const NumericId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
/** A numeric id in a path (`^[0-9]+$`: docs/conventions.md, “Ids”), as the string the path carries. */
export const NumericPathId = Type.String({ pattern: '^[0-9]+$', maxLength: 15, description: 'numeric id' });

/**
 * A location's local date a request names (a booking's, an availability's, a waitlist entry's):
 * YYYY-MM-DD of a year up to 9998. Reads take the days either side of a date as a key range, and
 * the day after 9999-12-31 is "+010000-01-01", which sorts before it: the range was refused by
 * DynamoDB and the request answered 500 (found by the fuzz). No restaurant takes bookings there.
 */
export const LocalDate = (description: string) =>
  Type.String({ format: 'date', pattern: '^(?:[0-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])-', description });

export const HexColor = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', description: 'hex color code' });

/**
 * How far `page` reaches: page × limit at most this many items (docs/api.md, “Paging”). A page is
 * read by walking the pages before it, so deeper reads go by `cursor` (one Query per page at any
 * depth); the bound keeps every request's reading small and every DynamoDB `Limit` far from
 * overflowing. The schema bounds `page` alone (limit ≥ 1); the chain checks the product, which a
 * schema cannot say (shared/page.ts `pageDepthProblem`).
 */
export const MAX_PAGED_ITEMS = 1000;

/** Query of a paged list; bounds differ per resource (docs/conventions.md, “Limits”). */
export function pageQuery(maxLimit: number, defaultLimit: number) {
  return {
    page: Type.Integer({
      minimum: 1,
      maximum: MAX_PAGED_ITEMS,
      default: 1,
      description: `page × limit at most ${MAX_PAGED_ITEMS}; read further with cursor`,
    }),
    limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit }),
    cursor: Type.Optional(Line({ minLength: 1, maxLength: 1024 })),
  };
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
