/**
 * The bookings domain's two kinds of module (docs/bookings.md, "Where things are"): the rules are
 * pure — no data-layer value, no AWS, no operation — so they stay testable without a database.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const rules = [
  'states',
  'rules',
  'requestTables',
  'time',
  'holds',
  'occupancy',
  'tabs',
  'dispatches',
  'confirmationCode',
];
const operations = ['create', 'update', 'transitions', 'seating', 'orders', 'read', 'settings', 'holdPlacement'];

/** The import specifiers of a module, with whether the import is for types only. */
function importsOf(name: string): { from: string; typeOnly: boolean }[] {
  const source = readFileSync(new URL(`../../shared/domain/bookings/${name}.ts`, import.meta.url), 'utf8');
  return [...source.matchAll(/^import (type )?[^;]*? from '([^']+)';$/gms)].map((m) => ({
    from: m[2]!,
    typeOnly: m[1] !== undefined,
  }));
}

describe('bookings domain layout', () => {
  it.each(rules)('rule %s imports no data-layer value, no AWS SDK and no operation', (name) => {
    const imports = importsOf(name);
    expect(imports.filter((i) => !i.typeOnly && i.from.includes('/data/'))).toEqual([]);
    expect(imports.filter((i) => i.from.startsWith('@aws-sdk'))).toEqual([]);
    expect(imports.filter((i) => operations.some((op) => i.from === `./${op}`))).toEqual([]);
  });
});
