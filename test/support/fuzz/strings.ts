/**
 * The fuzz's catalogue of awkward values: strings that have broken parsers, stores and templates
 * elsewhere (injection fragments of SQL, NoSQL and DynamoDB expressions, paths, markup), unicode
 * that is hard to get right (astral, right-to-left, combining marks, zero-width, lone surrogates),
 * control characters, and malformed ids of both kinds the API uses (numeric, UUID). The generators
 * (schema-cases.ts) draw from these; whether a value is valid for a field is for the oracle to say
 * (oracle.ts), not for this list.
 */

/** Injection fragments: none should reach a query, an expression or a page unescaped. */
export const injections = [
  "' OR '1'='1",
  '1; DROP TABLE bookings; --',
  '" OR ""="',
  '{"$gt":""}',
  '{"$ne":null}',
  '$where',
  '#pk',
  ':v',
  'pk = :pk',
  'attribute_exists(pk)',
  'SET #a = :v REMOVE #b',
  'C#1',
  'C#1#EVENTS',
  'KEY#x',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'undefined',
  'NaN',
  "=cmd|' /C calc'!A0",
  '\\u0000',
] as const;

/** Unicode a store or a length check can get wrong. */
export const unicode = [
  '😀',
  '👩‍👩‍👧‍👦',
  '𝕳𝖊𝖑𝖑𝖔',
  '𠜎𠜱𠝹',
  'مرحبا بالعالم',
  'שלום \u202Eevil\u202C',
  'e\u0301\u0301\u0301\u0301',
  'Z̴̡̛̖͎̖͉͙̠͔̱̝̹̓̐̀͂͑̍̚a̸l̵g̶o̶',
  '\u200B\u200C\u200D\uFEFF',
  'Ⅻ',
  '１２３',
  '١٢٣',
  'İıſ',
  'ß',
  'ﬀ',
  '\u00A0',
  '\u3000',
] as const;

/** Control characters, alone and inside text. */
const controls = [
  '\u0000',
  'a\u0000b',
  '\u0007\u0008',
  '\t',
  '\n',
  '\r\n',
  'line\nbreak',
  '\u001B[31mred',
  '\u007F',
  '\u0085',
  '\u2028\u2029',
] as const;

/** White space only: a name of nothing. */
const blanks = ['', ' ', '   ', '\t\n', '\u00A0', '\u3000'] as const;

/** Raw JSON string literals with lone surrogates (JSON.stringify cannot write them unescaped, so they go in as text). */
export const loneSurrogateLiterals = [
  '"\\ud800"',
  '"\\udfff"',
  '"a\\ud83d"',
  '"\\ude00b"',
  '"\\ud800\\ud800"',
] as const;

/** Raw JSON number literals that parse to something a schema or a store may not expect. */
export const numberLiterals = [
  '1e309',
  '-1e309',
  '1e-400',
  '-0',
  '0.1e1',
  '9007199254740993',
  '123456789012345678901234567890',
  '1.0000000000000002',
  '5e-324',
] as const;

/** Numbers as JSON values, beside the bounds the schema gives. */
export const numbers = [
  0,
  -1,
  1,
  -0,
  0.5,
  1.5,
  -1.5,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
] as const;

/** Values of every JSON type, for a field of the wrong one. */
export const anyJson: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  '',
  'x',
  '1',
  'true',
  'null',
  [],
  [1],
  ['x'],
  {},
  { a: 1 },
  [[]],
  { $gt: '' },
];

/** Numeric ids of every malformed kind, as they would appear in a path or a query. */
export const badNumericIds = [
  '-1',
  '0',
  '00',
  '1.5',
  '1e3',
  '+1',
  ' 1',
  '1 ',
  '0x1F',
  '99999999999999999999',
  '9007199254740993',
  '123456789012345678',
  'abc',
  'null',
  'NaN',
  'Infinity',
  '-0',
  '１２',
  '١٢',
  '1;DROP',
  '1%00',
  '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
] as const;

/** UUIDs of every malformed kind (and numbers where a UUID is due). */
export const badUuids = [
  '1',
  '0',
  '-1',
  '123',
  'not-a-uuid',
  '6f1c2d3e4b5a4c6d8e7f9a0b1c2d3e4f',
  '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4',
  '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f0',
  '{6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f}',
  'g f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4g',
  '00000000-0000-0000-0000-000000000000x',
  ' 6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
] as const;

/** Well-formed ids that name nothing (the answer should be 404, and nothing written). */
export const unknownIds = {
  numeric: ['1', '2', '999999999', '900719925474099'],
  uuid: [
    '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
    '00000000-0000-4000-8000-000000000000',
    'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
    'urn:uuid:6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  ],
} as const;

/** Path segments that are not ids at all: traversal, encoded separators, malformed escapes. */
export const pathSegments = [
  '..',
  '.',
  '%2e%2e',
  '..%2f..%2fadmin',
  '%2F',
  'a%2Fb',
  '%',
  '%zz',
  '%00',
  '%E0%A4%A',
  '%C0%AE%C0%AE',
  '~',
  ';',
  "'",
  '%3Cscript%3E',
  'x'.repeat(3000),
] as const;

/** Bodies that are not JSON, sent as application/json. */
export const notJson = [
  '{',
  '{"a":1',
  'nope',
  "{'a':1}",
  '{"a":1}}',
  '\uFEFF{}',
  '{"a":NaN}',
  '{"a":undefined}',
  'a=1&b=2',
  '<xml/>',
  '{"a":1,}',
  '[1,2',
  '\u0000',
  ' ',
] as const;

/** JSON texts whose root is not an object. */
export const nonObjectJson = ['[]', '[{}]', '"x"', '1', 'null', 'true', '""'] as const;

/** Content types a JSON body must not be taken under (415), and some it must be (any +json, any charset). */
export const wrongContentTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'text/json',
  'application/jsonx',
  'json',
  '*/*',
  '',
] as const;
export const jsonContentTypes = [
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/json;charset=latin1',
] as const;

/** Idempotency-Key headers that are not 1-255 printable ASCII characters without spaces. */
export const badIdempotencyKeys = ['a b', 'ä', 'x'.repeat(256), '\t', ''] as const;

/** Every string of the catalogue a text field may be given. */
export const awkwardStrings: readonly string[] = [...injections, ...unicode, ...controls, ...blanks];
