/**
 * What a request's string patterns and formats mean, in words: a field that does not match is
 * answered with these (shared/http/validation.ts), never with the regular expression itself. Plain
 * data with no imports, so a handler's bundle carries it without the schemas.
 * test/unit/text-sweep.test.ts fails on a pattern or format of a request schema missing here.
 */

const CONTROLS = '\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF';
const CONTROLS_BUT_TAB_AND_BREAKS = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF';

/** The text building blocks' patterns (shared/schemas/text.ts); linear in the length, whatever the input. */
export const TEXT_PATTERNS = {
  line: `^[^${CONTROLS}]*$`,
  name: `^(?!\\s*$)[^${CONTROLS}]*$`,
  prose: `^[^${CONTROLS_BUT_TAB_AND_BREAKS}]*$`,
} as const;

/** Pattern (its source, as the schema carries it) → the rule in words, after "must". */
export const PATTERN_WORDS: Readonly<Record<string, string>> = {
  [TEXT_PATTERNS.line]: 'must be one line of text without control characters',
  [TEXT_PATTERNS.name]:
    'must be one line of text with at least one character that is not white space, and no control characters',
  [TEXT_PATTERNS.prose]: 'must be text without control characters (tab and line breaks are allowed)',
  '\\S': 'must contain a character that is not white space',
  '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$': 'must be a time HH:MM (00:00-23:59)',
  '^(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]|24:00)$': 'must be a time HH:MM (00:00-24:00)',
  '^(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$': 'must be a time HH:MM:SS (00:00:00-23:59:59)',
  '^(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?$': 'must be a time HH:MM or HH:MM:SS (00:00-23:59:59)',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': 'must be a date YYYY-MM-DD',
  '^\\d{4}-\\d{2}-\\d{2}$': 'must be a date YYYY-MM-DD',
  '^(?:[0-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])-': 'must be a date YYYY-MM-DD of a year up to 9998',
  '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$': 'must be a hex colour such as #1a2b3c or #abc',
  '^[a-z0-9]+(?:[-_][a-z0-9]+)*$': 'must be lower-case letters and digits, words joined by - or _ (e.g. main_course)',
  '^[0-9]+$': 'must be a numeric id (digits only)',
  '^[A-Za-z0-9_-]{1,64}$': 'must be 1 to 64 letters, digits, _ or -',
  '^[A-Za-z0-9_-]+$': 'must be letters, digits, _ or -',
  '^[a-z]+(_[a-z]+)*\\.[a-z]+(_[a-z]+)*$':
    'must be a permission key resource.action (lower-case letters and _, e.g. bookings.create)',
  '^[A-Za-z]{2}$': 'must be a two-letter country code (ISO 3166-1, e.g. SE)',
  '^[a-z]+(-[a-z]+)*(\\.[a-z]+(-[a-z]+)*)+$': 'must be an event type such as booking.created',
  '^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}(?:[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{10})?$':
    'must be a confirmation code: 18 capital letters and digits, or 8 for a code issued before (no I, L, O, 0 or 1)',
  '^[1-9][0-9]{3}$': 'must be a ledger account of 4 digits (1000-9999)',
  '^[a-z0-9]{12}$': 'must be an API key id: 12 lower-case letters and digits',
  '^https?://[a-z0-9.-]+(:[0-9]{1,5})?$':
    'must be a web origin as a browser sends it: http(s)://host[:port], lower case, no path or trailing slash',
};

/** Format (ajv-formats) → the rule in words, after "must". */
export const FORMAT_WORDS: Readonly<Record<string, string>> = {
  uuid: 'must be a UUID (e.g. 5b0e3c9d-2f4a-4c1e-9d7b-8a6f1e2d3c4b)',
  date: 'must be a date YYYY-MM-DD (a real day)',
  'date-time': 'must be a date and time in ISO 8601 with its offset (e.g. 2026-12-18T19:00:00Z)',
  email: 'must be an email address (e.g. ada@example.com)',
  uri: 'must be an absolute URL (e.g. https://example.com/hooks)',
};
