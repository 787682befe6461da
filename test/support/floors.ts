/** Dining tables for the pure seating tests (fit, availability, assignment, the optimizer). */
import type { DiningTable } from '../../shared/data/tables';

/** A table of location 1, named by its id. */
export const table = (
  id: string,
  minCapacity: number,
  maxCapacity: number,
  combinableWith: string[] = [],
): DiningTable => ({
  id,
  locationId: 1,
  name: id,
  minCapacity,
  maxCapacity,
  combinableWith,
  createdAt: '',
  updatedAt: '',
  version: 1,
});

/** A grid of `rows` × `columns` two-tops (1-2 guests) named `G<row>-<column>`, each combinable with its neighbours across and down. */
export const grid = (rows: number, columns: number): DiningTable[] => {
  const name = (r: number, c: number) => `G${r}-${c}`;
  const tables: DiningTable[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < columns; c++) {
      const near = [
        [r - 1, c],
        [r + 1, c],
        [r, c - 1],
        [r, c + 1],
      ].filter(([y, x]) => y! >= 0 && y! < rows && x! >= 0 && x! < columns);
      tables.push(
        table(
          name(r, c),
          1,
          2,
          near.map(([y, x]) => name(y!, x!)),
        ),
      );
    }
  return tables;
};
