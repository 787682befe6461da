/**
 * Key builders. Only the data layer uses them: callers name a company and an id, never a key.
 * Every tenant key starts with the company (`C#<companyId>`), so no id can reach another tenant.
 */
import { createHash } from 'node:crypto';

const pad = (n: number, width = 12) => String(n).padStart(width, '0');

/**
 * Which of `n` buckets `text` falls in: the first 32 bits of its SHA-256, modulo `n`. The same
 * text gives the same bucket in every process and release (keys written by one are read and
 * deleted by another), and distinct texts spread evenly whatever they share.
 */
const bucket = (text: string, n: number) => createHash('sha256').update(text).digest().readUInt32BE(0) % n;

export const keys = {
  company: (companyId: number) => `C#${companyId}`,
  /** A numeric value as a sortable key part. */
  pad,
  /** Orders 0-100 with up to 6 decimals as a fixed-width sortable string. */
  sortableDecimal: (value: number) => pad(Math.round(value * 1e6), 10),
  bucket,
};

/**
 * The resource as the API shows it: exactly its fields, in a stable order, without the keys and
 * bookkeeping attributes the item also carries.
 */
export function pick<T>(item: Record<string, unknown>, fields: readonly (keyof T & string)[]): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in item) out[f] = item[f];
  return out as T;
}
