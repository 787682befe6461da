/**
 * Key builders. Only the data layer uses them: callers name a company and an id, never a key.
 * Every tenant key starts with the company (`C#<companyId>`), so no id can reach another tenant.
 */
const pad = (n: number, width = 12) => String(n).padStart(width, '0');

export const keys = {
  company: (companyId: number) => `C#${companyId}`,
  /** A numeric value as a sortable key part. */
  pad,
  /** Orders 0-100 with up to 6 decimals as a fixed-width sortable string. */
  sortableDecimal: (value: number) => pad(Math.round(value * 1e6), 10),
};

/** Attributes that belong to storage, not to the resource. */
const storageAttributes = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'entity', 'ttl', 'companyId']);

/** The resource as the API shows it: the stored item without keys and bookkeeping. */
export function toResource<T>(item: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (!storageAttributes.has(k)) out[k] = v;
  return out as T;
}
