import { Type, type TSchema } from '@sinclair/typebox';

/** UUID v4 ids (bookings, tabs, coursings, tables, …). */
export const Uuid = Type.String({ format: 'uuid', description: 'UUID' });

/** Numeric ids (companies, locations, users, …); path and query values are coerced from strings. */
export const NumericId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const HexColor = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', description: 'hex color code' });

/** Query of a paged list; bounds differ per resource (spec §8). */
export function pageQuery(maxLimit: number, defaultLimit: number) {
  return {
    page: Type.Integer({ minimum: 1, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  };
}

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
