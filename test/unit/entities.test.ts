/**
 * Every entity of the table stores what its schema declares and reads all of it back: for each
 * `defineEntity` of shared/, a value with every field of its schema set (optional ones too) goes
 * through `item` and back through `from` unchanged, and the item carries nothing else but its keys,
 * index keys and the attributes every item has; a value with a property its schema lacks is
 * refused. A field the derivation loses, or a stored attribute the schema does not declare, fails
 * here (docs/entities.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { entityRegistry } from '../../shared/data/entity';

const root = fileURLToPath(new URL('../../', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The modules of shared/ that define entities, and how many each defines (by reading the source). */
const definers = tsFiles(join(root, 'shared'))
  .filter((f) => !f.endsWith('shared/data/entity.ts'))
  .map((file) => ({ file, count: readFileSync(file, 'utf8').match(/\bdefineEntity\s*(?:<[^>]*>)?\(/g)?.length ?? 0 }))
  .filter((d) => d.count > 0);

/** Attributes of an item that are not fields of its value: keys, index keys, expiry, and what every item has. */
const bookkeeping = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'ttl', 'entity', 'companyId']);
/** Attributes an entity derives from its value beside its index keys, read by filters only (never by `from`). */
const derived: Record<string, readonly string[]> = { ITEM: ['searchName'] };

/** A value of the schema with every property set, optional ones included; unions take their first non-null member. */
function sample(schema: TSchema, path = ''): unknown {
  const s = schema as Record<string, unknown> & TSchema;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    const members = (s.anyOf ?? s.oneOf) as TSchema[];
    const member = members.find((m) => (m as { type?: unknown }).type !== 'null') ?? members[0]!;
    return sample(member, path);
  }
  if (Array.isArray(s.allOf))
    return Object.assign({}, ...(s.allOf as TSchema[]).map((m) => sample(m, path) as Record<string, unknown>));
  switch (s.type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, TSchema>;
      const out: Record<string, unknown> = Object.fromEntries(
        Object.entries(properties).map(([k, p]) => [k, sample(p, `${path}/${k}`)]),
      );
      const patterns = s.patternProperties as Record<string, TSchema> | undefined;
      const rest = patterns ? Object.values(patterns)[0] : s.additionalProperties;
      if (Object.keys(properties).length === 0 && rest !== undefined && rest !== false)
        out.k = rest === true ? `${path}/k` : sample(rest as TSchema, `${path}/k`);
      return out;
    }
    case 'array':
      if (Array.isArray(s.items)) return (s.items as TSchema[]).map((m, i) => sample(m, `${path}/${i}`));
      return [sample(s.items as TSchema, `${path}/0`)];
    case 'string':
      if (s.format === 'date-time') return '2026-11-23T05:00:00.000Z';
      if (s.format === 'date') return '2026-11-23';
      if (s.format === 'uuid') return '1e9a7c3b-5d2f-4a8e-b6c4-0f1d2e3a4b5c';
      if (s.format === 'email') return 'ada@example.com';
      return `s${path}`;
    case 'integer':
      return typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1;
    case 'number':
      return typeof s.minimum === 'number' ? Math.max(s.minimum, 1.5) : 1.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      // Type.Unknown / Type.Any: any value is stored as it is.
      return { any: `value${path}` };
  }
}

describe('the entity registry', () => {
  it('holds every entity shared/ defines', async () => {
    for (const { file } of definers) await import(file);
    const defined = definers.reduce((n, d) => n + d.count, 0);
    expect(
      definers.map((d) => `${relative(root, d.file)}: ${d.count}`),
      'files that define entities',
    ).not.toEqual([]);
    expect(entityRegistry.length, 'entities registered vs defineEntity calls in shared/').toBe(defined);
  });
});

describe('every entity', async () => {
  for (const { file } of definers) await import(file);

  it.each(entityRegistry.map((e, i) => [`${e.name} #${i}`, e] as const))(
    '%s stores every field of its schema and reads it back',
    (_name, entity) => {
      const value = sample(entity.schema);
      const companyId = 7;
      const item = entity.item(companyId, value);
      expect(entity.from(item)).toEqual(value);
      expect(entity.fields).toEqual(Object.keys(entity.schema.properties));
      const allowed = new Set([...bookkeeping, ...(derived[entity.name] ?? []), ...entity.fields]);
      expect(
        Object.keys(item).filter((a) => !allowed.has(a)),
        'attributes the schema does not declare',
      ).toEqual([]);
      // A value carrying a property its schema lacks (a wider type passed in) is refused, not written.
      expect(() => entity.item(companyId, { ...(value as object), undeclared: 1 })).toThrow(
        `${entity.name}: undeclared not in its schema`,
      );
    },
  );
});
