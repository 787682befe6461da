import { Type, type Static } from '@sinclair/typebox';
import { HexColor, Nullable, NumericId, Uuid, pageQuery } from './common';

const title = Type.String({ minLength: 1, maxLength: 200 });
const order = Type.Number({ minimum: 0, maximum: 100, description: 'display order' });
const color = Nullable(HexColor);

export const ListCoursingsQuery = Type.Object({ locationId: Type.Optional(NumericId), ...pageQuery(100, 20) });

export const CreateCoursingBody = Type.Object(
  { locationId: NumericId, title, order, color: Type.Optional(color) },
  { additionalProperties: false },
);

export const UpdateCoursingBody = Type.Object(
  { title: Type.Optional(title), order: Type.Optional(order), color: Type.Optional(color) },
  { additionalProperties: false, minProperties: 1 },
);

export const CoursingIdPath = Type.Object({ id: Uuid });

export type ListCoursingsQuery = Static<typeof ListCoursingsQuery>;
export type CreateCoursingBody = Static<typeof CreateCoursingBody>;
export type UpdateCoursingBody = Static<typeof UpdateCoursingBody>;
