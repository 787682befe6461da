import { Type, type Static } from './typebox';
import { HexColor, Nullable, NumericId, Uuid, pageQuery } from './common';
import { entity, stamps } from './views';
import { Name } from './text';

const title = Name(200);
const order = Type.Number({ minimum: 0, maximum: 100, description: 'display order' });
const color = Nullable(HexColor);

export const ListCoursingsQuery = Type.Object({ locationId: Type.Optional(NumericId), ...pageQuery(100, 20) });

export const CreateCoursingBody = Type.Object(
  { locationId: NumericId, title, order, color: Type.Optional(color) },
  { additionalProperties: false, examples: [{ locationId: 101, title: 'Starters', order: 1, color: '#e0a030' }] },
);

export const UpdateCoursingBody = Type.Object(
  { title: Type.Optional(title), order: Type.Optional(order), color: Type.Optional(color) },
  { additionalProperties: false, minProperties: 1, examples: [{ title: 'Small plates', order: 2 }] },
);

export const CoursingIdPath = Type.Object({ id: Uuid });

export const CoursingView = entity('Coursing', {
  id: Uuid,
  locationId: NumericId,
  title: Type.String(),
  order,
  color,
  ...stamps,
});
export const CoursingListView = Type.Array(CoursingView);

export type ListCoursingsQuery = Static<typeof ListCoursingsQuery>;
export type CreateCoursingBody = Static<typeof CreateCoursingBody>;
export type UpdateCoursingBody = Static<typeof UpdateCoursingBody>;
