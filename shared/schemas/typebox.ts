/**
 * TypeBox's builders this code uses, and only those (import `Type` from here, not from the
 * package). The package's own `Type` is one object holding every builder it has, so a bundle that
 * imports it keeps all of them: about 46 KB of each handler's bundle, where these take about 13 KB
 * (docs/benchmarks.md, "Two budgets, as this project reads them"). A builder not listed here is added here first.
 */
import {
  Array as array,
  Boolean as boolean,
  Integer,
  Literal,
  Null,
  Number as number,
  Object as object,
  Omit,
  Optional,
  Partial,
  Pick,
  Record as record,
  String as string,
  Tuple,
  Union,
  Unknown,
  Unsafe,
} from '@sinclair/typebox';

export type * from '@sinclair/typebox';

export const Type = {
  Array: array,
  Boolean: boolean,
  Integer,
  Literal,
  Null,
  Number: number,
  Object: object,
  Omit,
  Optional,
  Partial,
  Pick,
  Record: record,
  String: string,
  Tuple,
  Union,
  Unknown,
  Unsafe,
};
