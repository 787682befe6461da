/**
 * The text a client may send (docs/api.md, "Text"): every name and free-text field of a request is
 * one of these building blocks, so none stores a control character. Refused everywhere: the C0
 * controls (U+0000-U+001F, NUL included), DEL (U+007F), the C1 controls (U+0080-U+009F), and a lone
 * UTF-16 surrogate (what `\ud800` in JSON decodes to: no character at all). Multi-line free text
 * (notes, requests, descriptions, reasons, addresses) keeps tab, line feed and carriage return.
 * test/unit/text-sweep.test.ts walks the route table and fails on a string field of a request that
 * is none of these and not otherwise constrained (a format, a closed pattern, a list of values).
 */
import { Type, type StringOptions } from './typebox';
import { TEXT_PATTERNS } from './patterns';

type Bounds = Omit<StringOptions, 'pattern' | 'format'>;

/** One line of text, no control characters (may be blank where minLength allows). */
export const Line = (options: Bounds) => Type.String({ ...options, pattern: TEXT_PATTERNS.line });

/** A name or label: one line, at least one character that is not white space, no control characters. */
export const Name = (maxLength: number, options: Bounds = {}) =>
  Type.String({ minLength: 1, maxLength, ...options, pattern: TEXT_PATTERNS.name });

/** Multi-line free text: no control characters but tab, line feed and carriage return. */
export const Prose = (maxLength: number, options: Bounds = {}) =>
  Type.String({ minLength: 1, maxLength, ...options, pattern: TEXT_PATTERNS.prose });
