/** Dining tables for the pure seating tests (fit, availability, assignment, the optimizer). */
import type { Location } from '../../shared/data/locations';
import type { DiningTable } from '../../shared/data/tables';
import { weekdays, type WeekHours } from '../../shared/schemas/locations';

/** The same hours every day of the week. */
const everyDay = (open: string, close: string): WeekHours =>
  Object.fromEntries(weekdays.map((d) => [d, [{ open, close }]])) as WeekHours;

/** Location 1 in `zone`, open `hours` every day, as read at `now`. */
export const locationOf = (name: string, zone: string, hours: [string, string], now: Date): Location => ({
  id: 1,
  name,
  timezone: zone,
  operatingHours: everyDay(...hours),
  address: null,
  phone: null,
  country: 'SE',
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
  version: 1,
});

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
