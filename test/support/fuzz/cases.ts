/**
 * The fuzz's requests, drawn with fast-check from a route's schemas: each one changes a valid
 * request (the row's body example, the query its schema requires, real ids in the path) in one
 * way. Body fields get values of the wrong type, bounds ±1 and exactly at them, empty, huge,
 * awkward (strings.ts) and format-breaking values, missing required fields and extra ones; the
 * body as a whole is sent as text that is not JSON, JSON that is not an object, under a wrong
 * Content-Type, over the size limit, with `__proto__`, duplicated keys, number literals and lone
 * surrogates that JSON.stringify cannot write. Query parameters get malformed and out-of-bound
 * values, are left out or sent twice; path ids are malformed, unknown, or not ids at all.
 *
 * A case does not say how the API must answer: the oracle (oracle.ts) works that out from the
 * same schemas the stage validates with, so a case that turns out valid is simply a valid request.
 */
import fc from 'fast-check';
import type { Route } from '../../../shared/routes';
import { branchFor, branches, jsonType, literals, nullable, plain, typeOf, validValue, type Json } from './schema';
import * as S from './strings';

/** A JSON number or string literal written into the body's text as it is (see `bodyText`). */
class Raw {
  constructor(readonly text: string) {}
}

export interface FuzzCase {
  /** What kind of change: `body.field`, `query.duplicate`, `path.malformed`, … */
  family: string;
  /** Where: a JSON pointer into the body, a query or path parameter. */
  target: string;
  /** The change in words. */
  note: string;
  /** Path parameters: a value (percent-encoded when sent), or a raw segment sent as it is. */
  params: Record<string, { value: string; raw?: true }>;
  /** Query parameters in order (a name may repeat). */
  query: [string, string][];
  /** The body: a JSON value (may hold `Raw` literals), text sent as it is, or none. */
  body?: { json: unknown } | { text: string };
  /** undefined: application/json when there is a body; null: no Content-Type header. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

/** What a route's requests start from: each case changes one thing of it. */
export interface Base {
  route: Route;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

/** The body as sent: JSON text with the `Raw` literals written in place. */
export function bodyText(body: FuzzCase['body']): string | undefined {
  if (body === undefined) return undefined;
  if ('text' in body) return body.text;
  const raws: string[] = [];
  const text = JSON.stringify(body.json, (_k, v: unknown) =>
    v instanceof Raw ? `\u0001RAW${raws.push(v.text) - 1}\u0001` : v,
  );
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

type Pointer = (string | number)[];
const pointerText = (p: Pointer) => `/${p.join('/')}`;
const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** The body with the value at `pointer` set (undefined: removed). */
function setAt(root: unknown, pointer: Pointer, value: unknown): unknown {
  if (pointer.length === 0) return value;
  const out = clone(root) as Record<string | number, unknown>;
  let node = out;
  for (const key of pointer.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = pointer.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return out;
}

interface Slot {
  pointer: Pointer;
  schema: Json;
  value: unknown;
  /** Whether the parent object requires it. */
  required: boolean;
}

/** Every place of a body a case may change: each field present, each the schema names, array items. */
function slots(schema: Json, value: unknown, pointer: Pointer = [], required = true, out: Slot[] = []): Slot[] {
  out.push({ pointer, schema, value, required });
  const s = branchFor(schema, value);
  const t = typeOf(s);
  if (t === 'object' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const req = new Set((s.required ?? []) as string[]);
    for (const [k, sub] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
      const v = (value as Record<string, unknown>)[k];
      if (v === undefined) out.push({ pointer: [...pointer, k], schema: sub, value: undefined, required: req.has(k) });
      else slots(sub, v, [...pointer, k], req.has(k), out);
    }
  } else if (t === 'array' && Array.isArray(value)) {
    value.slice(0, 2).forEach((item, i) => slots(s.items ?? {}, item, [...pointer, i], true, out));
  }
  return out;
}

/** `base` repeated or cut to n characters (n code points for astral text). */
const sized = (base: string, n: number) =>
  n <= 0
    ? ''
    : Array.from((base || 'a').repeat(Math.ceil(n / Math.max(Array.from(base || 'a').length, 1)) + 1))
        .slice(0, n)
        .join('');

interface Change {
  note: string;
  value: unknown;
}

/** Values a field of this schema may be given, each with what it is (the oracle says which are valid). */
function valuesFor(schema: Json, current: unknown, n: number): Change[] {
  const s = branchFor(schema, current);
  const t = typeOf(s);
  const out: Change[] = S.anyJson
    .filter((v) => jsonType(v) !== t)
    .map((v) => ({ note: `wrong type: ${JSON.stringify(v)}`, value: v }));
  if (!nullable(schema)) out.push({ note: 'null', value: null });
  const lits = literals(schema);
  if (lits.length) {
    const first = String(lits[0]);
    out.push(
      { note: 'not one of the values', value: `${first}x` },
      { note: 'upper-cased value', value: first.toUpperCase() },
      { note: 'value with spaces', value: ` ${first} ` },
    );
  }
  if (t === 'string') {
    const base = typeof current === 'string' && current.length ? current : String(validValue(s, n) ?? 'a');
    const { minLength, maxLength, format, pattern } = s as {
      minLength?: number;
      maxLength?: number;
      format?: string;
      pattern?: string;
    };
    if (minLength !== undefined && minLength > 0)
      out.push(
        { note: `minLength-1 (${minLength - 1})`, value: sized(base, minLength - 1) },
        { note: `at minLength (${minLength})`, value: sized(base, minLength) },
      );
    if (maxLength !== undefined) {
      out.push(
        { note: `maxLength+1 (${maxLength + 1})`, value: sized(base, maxLength + 1) },
        { note: `at maxLength (${maxLength})`, value: sized(base, maxLength) },
      );
      out.push({ note: `astral at maxLength (${maxLength} code points)`, value: sized('😀', maxLength) });
    }
    out.push({ note: 'empty', value: '' }, { note: 'huge (60000 characters)', value: sized(base, 60_000) });
    for (const v of S.awkwardStrings) out.push({ note: `awkward ${JSON.stringify(v).slice(0, 40)}`, value: v });
    for (const v of S.loneSurrogateLiterals) out.push({ note: `lone surrogate ${v}`, value: new Raw(v) });
    out.push(
      { note: 'awkward appended', value: `${base}${S.injections[n % S.injections.length]}` },
      { note: 'unicode appended', value: `${base}${S.unicode[n % S.unicode.length]}` },
    );
    if (format === 'date')
      out.push(
        ...['2026-02-30', '2026-13-01', '26-01-01', `${base}T00:00:00Z`, '0000-01-01', '9999-12-31', '1970-01-01'].map(
          (v) => ({ note: `date ${v}`, value: v }),
        ),
      );
    if (format === 'date-time')
      out.push(
        ...[
          '2026-01-01',
          'yesterday',
          '2026-01-01T25:00:00Z',
          '2026-01-01T00:00:00',
          '9999-12-31T23:59:59Z',
          '0001-01-01T00:00:00Z',
        ].map((v) => ({ note: `date-time ${v}`, value: v })),
      );
    if (format === 'email')
      out.push(
        ...['a@', '@b.se', 'a b@c.se', `${'x'.repeat(250)}@e.se`, 'a@b', '"a"@b.se'].map((v) => ({
          note: `email ${v.slice(0, 30)}`,
          value: v,
        })),
      );
    if (format === 'uuid')
      out.push(
        ...S.badUuids.map((v) => ({ note: `uuid ${v.slice(0, 40)}`, value: v })),
        ...S.unknownIds.uuid.map((v) => ({ note: `unknown uuid ${v}`, value: v })),
      );
    if (format === 'uri')
      out.push(
        ...[
          'javascript:alert(1)',
          'ftp://x',
          'http://169.254.169.254/latest/meta-data',
          'http://localhost:1/',
          'not a url',
          'https://',
        ].map((v) => ({ note: `uri ${v}`, value: v })),
      );
    if (pattern)
      out.push(
        { note: 'pattern with a trailing newline', value: `${base}\n` },
        { note: 'pattern with a leading space', value: ` ${base}` },
      );
  }
  if (t === 'integer' || t === 'number') {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = s as Record<string, number | undefined>;
    if (minimum !== undefined)
      out.push(
        { note: `minimum-1 (${minimum - 1})`, value: minimum - 1 },
        { note: `at minimum (${minimum})`, value: minimum },
      );
    if (maximum !== undefined)
      out.push(
        { note: `maximum+1 (${maximum + 1})`, value: maximum + 1 },
        { note: `at maximum (${maximum})`, value: maximum },
      );
    if (exclusiveMinimum !== undefined)
      out.push({ note: `at exclusiveMinimum (${exclusiveMinimum})`, value: exclusiveMinimum });
    if (exclusiveMaximum !== undefined)
      out.push({ note: `at exclusiveMaximum (${exclusiveMaximum})`, value: exclusiveMaximum });
    if (t === 'integer') out.push({ note: 'not an integer', value: (typeof current === 'number' ? current : 1) + 0.5 });
    for (const v of S.numbers) out.push({ note: `number ${v}`, value: v });
    for (const v of S.numberLiterals) out.push({ note: `number literal ${v}`, value: new Raw(v) });
    out.push({ note: 'the number as a string', value: String(current ?? 1) });
  }
  if (t === 'boolean') out.push({ note: 'the string "true"', value: 'true' }, { note: '1', value: 1 });
  if (t === 'array') {
    const item = (s.items ?? {}) as Json;
    const { minItems, maxItems, uniqueItems } = s as { minItems?: number; maxItems?: number; uniqueItems?: boolean };
    const arr = Array.isArray(current) ? current : [];
    const distinct = (count: number) =>
      Array.from({ length: count }, (_, i) => (i < arr.length && !uniqueItems ? arr[i] : validValue(item, n + i + 1)));
    out.push({ note: 'empty array', value: [] });
    if (minItems !== undefined && minItems > 0)
      out.push({ note: `minItems-1 (${minItems - 1})`, value: distinct(minItems - 1) });
    if (maxItems !== undefined)
      out.push(
        { note: `maxItems+1 (${maxItems + 1})`, value: distinct(maxItems + 1) },
        { note: `at maxItems (${maxItems})`, value: distinct(maxItems) },
      );
    else out.push({ note: '5000 items', value: distinct(5000) });
    const one = arr[0] ?? validValue(item, n);
    if (uniqueItems) out.push({ note: 'the same item twice', value: [one, one] });
    out.push(
      { note: 'items of the wrong type', value: [null] },
      { note: 'nested array', value: [[one]] },
      { note: 'an item and a wrong one', value: [one, { $gt: '' }] },
    );
  }
  if (t === 'object') {
    out.push({ note: 'empty object', value: {} }, { note: 'an array of it', value: [current ?? {}] });
    out.push({ note: 'deep nesting (2000 levels)', value: new Raw(`${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`) });
  }
  if (t === undefined)
    out.push({ note: 'deep nesting (2000 levels)', value: new Raw(`${'['.repeat(2000)}${']'.repeat(2000)}`) });
  return out;
}

/** Query and path values are text: the values a parameter of this schema may be sent. */
function textsFor(schema: Json): Change[] {
  const s = branchFor(schema, undefined);
  const t = typeOf(s);
  const out: Change[] = [];
  const add = (note: string, values: readonly string[]) =>
    out.push(...values.map((v) => ({ note: `${note} ${JSON.stringify(v).slice(0, 40)}`, value: v })));
  if (t === 'integer' || t === 'number') {
    add('malformed number', S.badNumericIds);
    const { minimum, maximum } = s as Record<string, number | undefined>;
    if (minimum !== undefined) add('bound', [String(minimum - 1), String(minimum)]);
    if (maximum !== undefined) add('bound', [String(maximum + 1), String(maximum)]);
    add('unknown id', S.unknownIds.numeric);
  } else if (t === 'boolean') add('not a boolean', ['yes', '1', 'TRUE', '', 'null']);
  else if (t === 'string') {
    if (s.format === 'uuid') {
      add('malformed uuid', S.badUuids);
      add('unknown uuid', S.unknownIds.uuid);
    }
    if (s.format === 'date' || s.format === 'date-time')
      add('malformed date', [
        '2026-02-30',
        '2026-13-01',
        'today',
        '0000-00-00',
        '9999-12-31',
        '1970-01-01',
        '2026-1-1',
      ]);
    const { minLength, maxLength } = s as { minLength?: number; maxLength?: number };
    if (minLength !== undefined && minLength > 0) add('minLength-1', [sized('a', minLength - 1)]);
    if (maxLength !== undefined) add('length bound', [sized('a', maxLength + 1), sized('a', maxLength)]);
    add('huge', ['x'.repeat(4000)]);
    add('awkward', S.awkwardStrings);
    add('id of the other kind', ['1', '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f']);
  }
  const lits = literals(schema);
  if (lits.length) add('not one of the values', [`${String(lits[0])}x`, String(lits[0]).toUpperCase(), '']);
  add('empty', ['']);
  return out;
}

const one = <T>(values: readonly T[]) => fc.constantFrom(...values);

/**
 * The arbitrary of a route's fuzz cases: the families that apply to it (a body, a query, path
 * parameters, a POST), weighted toward the field-level changes.
 */
export function casesOf(base: Base): fc.Arbitrary<FuzzCase> {
  const { route } = base;
  const start = (family: string, target: string, note: string): FuzzCase => ({
    family,
    target,
    note,
    params: Object.fromEntries(Object.entries(base.params).map(([k, v]) => [k, { value: v }])),
    query: Object.entries(base.query),
    body: route.schemas.body ? { json: base.body } : undefined,
  });
  const families: { arbitrary: fc.Arbitrary<FuzzCase>; weight: number }[] = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<FuzzCase>) => families.push({ arbitrary, weight });

  if (route.schemas.body) {
    const schema = plain(route.schemas.body);
    const all = slots(schema, base.body);
    const objects = all.filter((s) => typeOf(branchFor(s.schema, s.value)) === 'object' && s.value !== undefined);
    add(
      12,
      one(all).chain((slot) =>
        one(valuesFor(slot.schema, slot.value, slot.pointer.length)).map((c) => ({
          ...start('body.field', pointerText(slot.pointer), c.note),
          body: { json: setAt(base.body, slot.pointer, c.value) },
        })),
      ),
    );
    const removable = all.filter((s) => s.pointer.length > 0 && s.value !== undefined);
    if (removable.length)
      add(
        2,
        one(removable).map((slot) => ({
          ...start(
            slot.required ? 'body.missing-required' : 'body.optional-left-out',
            pointerText(slot.pointer),
            'left out',
          ),
          body: { json: setAt(base.body, slot.pointer, undefined) },
        })),
      );
    const extraKeys = [
      'extra',
      'id',
      'companyId',
      'pk',
      'sk',
      '#pk',
      ':v',
      '$gt',
      'constructor',
      'version',
      'createdAt',
    ];
    if (objects.length)
      add(
        2,
        fc.tuple(one(objects), one(extraKeys), one(S.anyJson)).map(([slot, key, value]) => ({
          ...start(
            'body.extra-field',
            `${pointerText(slot.pointer)}/${key}`,
            `extra field ${key}=${JSON.stringify(value)}`,
          ),
          body: { json: setAt(base.body, [...slot.pointer, key], value) },
        })),
      );
    add(
      1,
      one(S.nonObjectJson).map((text) => ({ ...start('body.root', '/', `JSON root ${text}`), body: { text } })),
    );
    add(
      1,
      one(['{}', ...S.notJson]).map((text) => ({
        ...start(text === '{}' ? 'body.empty-object' : 'body.not-json', '/', `body ${JSON.stringify(text)}`),
        body: { text },
      })),
    );
    const json = bodyText({ json: base.body }) ?? '{}';
    const inner = json.startsWith('{') && json.length > 2 ? json.slice(1) : '}';
    const firstKey = Object.keys((base.body ?? {}) as object)[0] ?? 'name';
    add(
      2,
      one([
        { note: '__proto__ key', text: `{"__proto__":{"isAdmin":true},${inner}` },
        { note: 'constructor.prototype key', text: `{"constructor":{"prototype":{"x":1}},${inner}` },
        {
          note: `duplicated key ${firstKey} (last wrong)`,
          text: `{"${firstKey}":${JSON.stringify((base.body as Record<string, unknown>)?.[firstKey] ?? 1)},${inner.replace(/\}$/, '')},"${firstKey}":{"$gt":""}}`,
        },
        { note: `duplicated key ${firstKey} (last valid)`, text: `{"${firstKey}":{"$gt":""},${inner}` },
        { note: 'byte order mark', text: `\uFEFF${json}` },
        { note: 'trailing garbage', text: `${json}x` },
        { note: 'two JSON values', text: `${json}${json}` },
      ]).map((c) => ({ ...start('body.text', '/', c.note), body: { text: c.text } })),
    );
    add(
      1,
      one(S.wrongContentTypes.map((ct) => ({ ct, note: `Content-Type ${JSON.stringify(ct)}` }))).map((c) => ({
        ...start('body.content-type', 'Content-Type', c.note),
        contentType: c.ct === '' ? null : c.ct,
      })),
    );
    add(
      1,
      one(S.jsonContentTypes).map((ct) => ({
        ...start('body.content-type', 'Content-Type', `JSON Content-Type ${ct}`),
        contentType: ct,
      })),
    );
  }
  {
    // Every operation takes JSON or nothing (a GET, nothing): the body checks come before the schema's.
    add(
      1,
      one([300 * 1024, 256 * 1024 + 1]).map((size) => ({
        ...start('body.oversized', '/', `${size} bytes`),
        body: { text: JSON.stringify({ pad: 'x'.repeat(size) }) },
      })),
    );
    if (!route.schemas.body)
      add(
        1,
        one([...S.notJson.slice(0, 4), '{"x":1}']).map((text) => ({
          ...start('body.unexpected', '/', `a body where none is taken: ${JSON.stringify(text)}`),
          body: { text },
          contentType: text.startsWith('{"x"') ? 'text/plain' : 'application/json',
        })),
      );
  }
  if (route.schemas.query) {
    const schema = plain(route.schemas.query);
    const props = Object.entries((schema.properties ?? {}) as Record<string, Json>);
    const required = new Set((schema.required ?? []) as string[]);
    if (props.length) {
      add(
        6,
        one(props).chain(([name, sub]) =>
          one(textsFor(sub)).map((c) => ({
            ...start('query.field', `query.${name}`, c.note),
            query: [...Object.entries(base.query).filter(([k]) => k !== name), [name, c.value as string]] as [
              string,
              string,
            ][],
          })),
        ),
      );
      add(
        2,
        fc
          .tuple(
            one(props).chain(([name, sub]) =>
              fc.tuple(fc.constant([name, sub] as const), one(textsFor(sub).map((c) => c.value as string))),
            ),
            fc.boolean(),
          )
          .map(([[[name, sub], bad], badLast]) => {
            const good = base.query[name] ?? String(validValue(sub));
            const pair: [string, string][] = badLast
              ? [
                  [name, good],
                  [name, bad],
                ]
              : [
                  [name, bad],
                  [name, good],
                ];
            return {
              ...start(
                'query.duplicate',
                `query.${name}`,
                `sent twice, ${badLast ? 'the last' : 'the first'} ${JSON.stringify(bad).slice(0, 30)}`,
              ),
              query: [...Object.entries(base.query).filter(([k]) => k !== name), ...pair],
            };
          }),
      );
      const req = props.filter(
        ([n]) => required.has(n) && branches(props.find(([p]) => p === n)![1]).every((b) => b.default === undefined),
      );
      if (req.length)
        add(
          1,
          one(req).map(([name]) => ({
            ...start('query.missing-required', `query.${name}`, 'left out'),
            query: Object.entries(base.query).filter(([k]) => k !== name),
          })),
        );
    }
    add(
      1,
      one(['__proto__', 'constructor', 'limit[]', '$where', 'a'.repeat(300), '']).map((name) => ({
        ...start('query.unknown', `query.${name.slice(0, 20)}`, 'a parameter the schema does not name'),
        query: [...Object.entries(base.query), [name, '1']] as [string, string][],
      })),
    );
  }
  const paramNames = Object.keys(base.params);
  if (paramNames.length) {
    const pathSchema = plain(route.schemas.path ?? {});
    add(
      3,
      one(paramNames).chain((name) =>
        one(textsFor(pathSchema.properties?.[name] ?? { type: 'string' })).map((c) => ({
          ...start('path.malformed', `path.${name}`, c.note),
          params: { ...start('', '', '').params, [name]: { value: c.value as string } },
        })),
      ),
    );
    add(
      1,
      fc.tuple(one(paramNames), one(S.pathSegments)).map(([name, seg]) => ({
        ...start('path.segment', `path.${name}`, `raw segment ${seg.slice(0, 30)}`),
        params: { ...start('', '', '').params, [name]: { value: seg, raw: true } },
      })),
    );
  }
  if (route.method === 'POST')
    add(
      1,
      one(S.badIdempotencyKeys).map((key) => ({
        ...start('header.idempotency-key', 'Idempotency-Key', `Idempotency-Key ${JSON.stringify(key).slice(0, 20)}`),
        headers: { 'Idempotency-Key': key },
      })),
    );
  if (families.length === 0) add(1, fc.constant(start('none', '/', 'the request as it is')));
  return fc.oneof(...families);
}
