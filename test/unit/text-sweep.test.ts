/**
 * Every string field of every request, found by walking the route table (so a field added
 * tomorrow is covered): its rule reads in words (no regular expression in an answer), and a name
 * or free-text field refuses control characters through the route's own precompiled validator,
 * the one the handler runs (docs/api.md, "Text").
 */
import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { eventValidator, type RouteValidators } from '../../shared/http/validation';
import { routes, type Route } from '../../shared/routes';
import { FORMAT_WORDS, PATTERN_WORDS, TEXT_PATTERNS } from '../../shared/schemas/patterns';

type Step = { key: string } | { item: true } | { record: true };
interface Leaf {
  route: Route;
  part: 'body' | 'query' | 'path';
  steps: Step[];
  schema: Record<string, unknown>;
}

/** The request's string fields (a list of values or a constant is no text). */
function leaves(route: Route): Leaf[] {
  const found: Leaf[] = [];
  const walk = (s: unknown, part: Leaf['part'], steps: Step[]) => {
    if (!s || typeof s !== 'object') return;
    const o = s as Record<string, unknown>;
    if (o.type === 'string' && o.const === undefined && o.enum === undefined)
      found.push({ route, part, steps, schema: o });
    if (o.properties)
      for (const [key, v] of Object.entries(o.properties as Record<string, unknown>))
        walk(v, part, [...steps, { key }]);
    if (o.items) walk(o.items, part, [...steps, { item: true }]);
    if (o.additionalProperties && typeof o.additionalProperties === 'object')
      walk(o.additionalProperties, part, [...steps, { record: true }]);
    if (o.patternProperties)
      for (const v of Object.values(o.patternProperties as Record<string, unknown>))
        walk(v, part, [...steps, { record: true }]);
    for (const k of ['anyOf', 'oneOf', 'allOf'])
      if (Array.isArray(o[k])) for (const v of o[k] as unknown[]) walk(v, part, steps);
  };
  for (const part of ['body', 'query', 'path'] as const) walk(route.schemas[part] as TSchema | undefined, part, []);
  return found;
}

const all = routes.flatMap((r) => leaves(r as Route));
const texts = new Set<string>(Object.values(TEXT_PATTERNS));
const isText = (l: Leaf) => typeof l.schema.pattern === 'string' && texts.has(l.schema.pattern);
const where = (l: Leaf) =>
  `${l.route.operationId} ${l.part} /${l.steps.map((s) => ('key' in s ? s.key : '*')).join('/')}`;

/** The request part holding `value` at the leaf's place, and the place as the answer names it. */
function placed(l: Leaf, value: string): { data: unknown; path: string } {
  let data: unknown = value;
  for (const step of [...l.steps].reverse())
    data = 'key' in step ? { [step.key]: data } : 'item' in step ? [data] : { k: data };
  const path = l.steps.map((s) => ('key' in s ? s.key : 'item' in s ? '0' : 'k')).join('/');
  return { data, path: `/${path}` };
}

const validatorsOf = async (operationId: string): Promise<RouteValidators> =>
  ((await import(`../../shared/http/operations/${operationId}.ts`)) as { operation: { validators: RouteValidators } })
    .operation.validators;

/** The problems the route's validators find in a request with `value` at the leaf's place. */
async function problemsAt(l: Leaf, value: string) {
  const { data, path } = placed(l, value);
  const event = {
    body: l.part === 'body' ? data : {},
    queryStringParameters: l.part === 'query' ? data : {},
    pathParameters: l.part === 'path' ? data : {},
  };
  const validate = eventValidator(await validatorsOf(l.route.operationId))!;
  validate(event);
  return (validate.errors ?? []).filter((p) => p.path === path);
}

/** Text that is otherwise valid for the leaf: letters, to its minimum length. */
const plain = (l: Leaf) => 'Ab cd'.padEnd(Math.max(5, Number(l.schema.minLength ?? 0)), 'x');
const controls = ['\u0000', '\u0001', '\u001b', '\u001f', '\u007f', '\u0085', '\u009f', '\ud800'];
/** A pattern whose alphabet is closed (anchored, no negated class, no "any character"): it cannot take a control character. */
const closedPattern = (p: string) =>
  p.startsWith('^') && p.endsWith('$') && !/\[\^|(?<!\\)\.(?![^[]*\])|\\[SWDs]/.test(p);

describe('text fields of requests (a sweep of the route table)', () => {
  it('finds the text fields (the sweep walks something)', () => {
    expect(all.filter(isText).length).toBeGreaterThan(80);
  });

  it('gives every string field a rule in words: each pattern and format is known to the error texts', () => {
    const unknown = all.filter(
      (l) =>
        (typeof l.schema.pattern === 'string' && PATTERN_WORDS[l.schema.pattern] === undefined) ||
        (typeof l.schema.format === 'string' && FORMAT_WORDS[l.schema.format] === undefined),
    );
    expect(unknown.map(where)).toEqual([]);
  });

  it('leaves no string field unchecked: each is a text building block, a format, or a closed pattern', () => {
    const open = all.filter(
      (l) => !isText(l) && l.schema.format === undefined && !closedPattern(String(l.schema.pattern ?? '')),
    );
    expect(open.map(where)).toEqual([]);
  });

  it('refuses a control character in every name and free-text field, naming the field and the rule in words', async () => {
    const accepted: string[] = [];
    for (const l of all.filter(isText)) {
      expect(await problemsAt(l, plain(l)), `${where(l)} takes plain text`).toEqual([]);
      for (const c of controls) {
        const value = `${plain(l).slice(0, 2)}${c}${plain(l).slice(2)}`;
        const found = await problemsAt(l, value);
        if (found.length !== 1 || !found[0]!.message.includes('control characters'))
          accepted.push(`${where(l)} U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('keeps tab and line breaks in multi-line text only', async () => {
    for (const l of all.filter(isText)) {
      const found = await problemsAt(l, `${plain(l)}\n\tmore\r\n`);
      if (l.schema.pattern === TEXT_PATTERNS.prose) expect(found, where(l)).toEqual([]);
      else expect(found.length, where(l)).toBe(1);
    }
  });

  it('refuses a control character in a field with a format too', async () => {
    const samples: Record<string, string> = {
      uuid: '5b0e3c9d-2f4a-4c1e-9d7b-8a6f1e2d3c4b',
      date: '2026-12-18',
      'date-time': '2026-12-18T19:00:00Z',
      email: 'ada@example.com',
      uri: 'https://example.com/hooks',
    };
    for (const l of all.filter((x) => typeof x.schema.format === 'string')) {
      const sample = samples[l.schema.format as string]!;
      expect(await problemsAt(l, sample), where(l)).toEqual([]);
      for (const c of controls)
        expect((await problemsAt(l, `${sample.slice(0, 4)}${c}${sample.slice(4)}`)).length, where(l)).toBe(1);
    }
  });
});
