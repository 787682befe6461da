/** The fields of `next` whose values differ from `prev`: the `changes` of an update event. */
export function changedFields<T extends object>(prev: T, next: T, fields: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const f of fields) if (JSON.stringify(prev[f]) !== JSON.stringify(next[f])) out[f] = next[f];
  return out;
}
