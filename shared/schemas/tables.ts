import { Type, type Static } from './typebox';
import { NumericId, Uuid, pageQuery } from './common';
import { displayName } from './locations';

/** A table may be pushed together with at most this many others (bounds every transaction that keeps the pairs symmetric). */
export const MAX_COMBINABLE = 20;

const name = displayName(50);
const capacity = Type.Integer({ minimum: 1, maximum: 100, description: 'guests' });
const combinableWith = Type.Array(Uuid, {
  uniqueItems: true,
  maxItems: MAX_COMBINABLE,
  description: 'other tables of the same location this one can be combined with',
});

export const TablePath = Type.Object({ locationId: NumericId, id: Uuid });

export const ListTablesQuery = Type.Object(pageQuery(100, 20));

export const CreateTableBody = Type.Object(
  { name, minCapacity: capacity, maxCapacity: capacity, combinableWith: Type.Optional(combinableWith) },
  {
    additionalProperties: false,
    examples: [
      { name: 'T12', minCapacity: 2, maxCapacity: 4, combinableWith: ['3f1c2b7e-8a4d-4c1e-9b2a-6d5e4f3a2b1c'] },
    ],
  },
);

export const UpdateTableBody = Type.Object(
  {
    name: Type.Optional(name),
    minCapacity: Type.Optional(capacity),
    maxCapacity: Type.Optional(capacity),
    combinableWith: Type.Optional(combinableWith),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ maxCapacity: 6 }] },
);

export const TableView = Type.Object(
  {
    id: Uuid,
    locationId: NumericId,
    name: Type.String(),
    minCapacity: Type.Integer({ minimum: 1 }),
    maxCapacity: Type.Integer({ minimum: 1 }),
    combinableWith: Type.Array(Uuid),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    version: Type.Integer({ minimum: 1 }),
  },
  { title: 'Table', additionalProperties: false },
);

export type TablePath = Static<typeof TablePath>;
export type ListTablesQuery = Static<typeof ListTablesQuery>;
export type CreateTableBody = Static<typeof CreateTableBody>;
export type UpdateTableBody = Static<typeof UpdateTableBody>;
