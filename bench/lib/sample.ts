/**
 * A minimal valid value for a TypeBox / JSON schema: required properties only, lower bounds,
 * first union member, known formats. Used only for routes without a fixture, to show what their
 * handler would do; a schema it cannot satisfy (e.g. a pattern) simply makes that attempt fail.
 */
type Schema = Record<string, unknown>;

const formats: Record<string, string> = {
  uuid: '00000000-0000-4000-8000-000000000001',
  date: '2026-11-20',
  'date-time': '2026-11-20T20:00:00.000Z',
  time: '20:00:00',
  email: 'bench@example.com',
  uri: 'https://example.com/hook',
};

export function sample(schema: Schema | undefined, asString = false): unknown {
  if (!schema) return undefined;
  const out = sampleValue(schema);
  if (!asString || out === undefined) return out;
  // Path and query parameters travel as strings.
  return Object.fromEntries(Object.entries(out as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

function sampleValue(s: Schema): unknown {
  if ('const' in s) return s.const;
  if ('default' in s) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  const union = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (union) return sampleValue(union.find((m) => m.type !== 'null') ?? union[0]!);
  switch (s.type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = new Set((s.required ?? []) as string[]);
      const entries = Object.entries(props).filter(([k]) => required.has(k));
      if (entries.length === 0 && typeof s.minProperties === 'number' && s.minProperties > 0) {
        entries.push(...Object.entries(props).slice(0, s.minProperties));
      }
      return Object.fromEntries(entries.map(([k, v]) => [k, sampleValue(v)]));
    }
    case 'array':
      return Array.from({ length: Number(s.minItems ?? 0) }, () => sampleValue((s.items ?? {}) as Schema));
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? Math.max(s.minimum, s.type === 'integer' ? 1 : 0) : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string': {
      if (typeof s.format === 'string' && formats[s.format]) return formats[s.format];
      return 'x'.repeat(Math.max(1, Number(s.minLength ?? 1)));
    }
    default:
      return undefined;
  }
}
