/**
 * In-process caches of a container hold at most a fixed number of entries: `putBounded` sets a key
 * as the newest, dropping the oldest first (`drop` for a cache with bookkeeping of its own).
 */
export function putBounded<K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
  max: number,
  drop: (key: K) => void = (k) => map.delete(k),
): void {
  map.delete(key); // re-inserted: the newest
  while (map.size >= max) drop(map.keys().next().value!);
  map.set(key, value);
}
