/** decisions.md §1: `meta.pagination` of every list. */
export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  nextCursor: string | null;
}

/** A page of a list: the envelope puts `items` in `data` and `pagination` in `meta`. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly pagination: Pagination,
  ) {}
}
