/**
 * Contact details and search terms of guests, as pure functions: email and phone normalization
 * (what makes two guests "the same"), and the search tokens a guest is found by.
 */

/** E.164: `+`, a country code that does not start with 0, at most 15 digits in all. */
const E164 = /^\+[1-9][0-9]{7,14}$/;
/** What people write between the digits of a phone number. */
const PHONE_SEPARATORS = /[\s().-]/g;

/** Longest search token (and query prefix), in characters: longer queries match on their start. */
export const MAX_TOKEN_LENGTH = 64;
/** A name is searchable from each of its first words; a long name's later words only extend them. */
export const MAX_NAME_WORDS = 10;
/** Queries shorter than this (after normalization) would match too much to be useful. */
export const MIN_PREFIX_LENGTH = 2;

/** Letters without accents or case ("Åsa" → "asa"); letters that do not decompose get a plain spelling. */
const plainSpelling: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/**
 * Text as search compares it: lower case, accents removed, apostrophes dropped (O'Brien → obrien),
 * every other run of punctuation or space a single space. "Anna-Karin Öberg" → "anna karin oberg".
 */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[øæœßłđðþı]/g, (c) => plainSpelling[c]!)
    .replace(/['’ʼ`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Emails compare without surrounding space and case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export type PhoneResult = { ok: true; e164: string } | { ok: false; problem: string };

/**
 * A phone number in E.164 (`+46701234567`). Accepts spaces, dashes, dots and parentheses between
 * the digits and a leading `00` for `+`. A number without its country code is refused: the same
 * national number means different people in different countries.
 */
export function parsePhone(raw: string): PhoneResult {
  const compact = raw.trim().replace(PHONE_SEPARATORS, '');
  if (!/^\+?[0-9]+$/.test(compact)) {
    return { ok: false, problem: 'may contain only digits, spaces, dashes, dots, parentheses and a leading +' };
  }
  const international = compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
  if (!international.startsWith('+')) {
    return { ok: false, problem: 'must start with the country code, as +46 70 123 45 67 or 0046 70 123 45 67' };
  }
  if (!E164.test(international)) {
    return { ok: false, problem: 'must be + and a country code (not starting with 0) followed by 8 to 15 digits in all' };
  }
  return { ok: true, e164: international };
}

const codePoints = (s: string) => Array.from(s);

/** At most MAX_TOKEN_LENGTH characters, never ending in a space. */
const clip = (s: string) => codePoints(s).slice(0, MAX_TOKEN_LENGTH).join('').trimEnd();

/**
 * The tokens a guest is found by; a query matches a guest when it is the start of one of them.
 * - the name from each of its first words on ("anna maria berg", "maria berg", "berg"), so a query
 *   matches the start of any word and may go on into the next ones ("maria b");
 * - the email, folded like text ("anna.berg@example.com" → "anna berg example com");
 * - the phone's digits without the `+`.
 * A token that starts another token is dropped (the longer one finds everything it would), so a
 * guest's tokens never start one another.
 */
export function searchTokens(guest: { name: string; email: string | null; phone: string | null }): string[] {
  const words = foldText(guest.name).split(' ').filter(Boolean);
  const fromWords = words.slice(0, MAX_NAME_WORDS).map((_, i) => words.slice(i).join(' '));
  const all = [...fromWords, ...(guest.email ? [foldText(guest.email)] : []), ...(guest.phone ? [guest.phone.slice(1)] : [])];
  const tokens = [...new Set(all.map(clip))].filter((t) => codePoints(t).length >= MIN_PREFIX_LENGTH);
  return tokens.filter((t) => !tokens.some((other) => other !== t && other.startsWith(t)));
}

/**
 * The token prefix a search query stands for, or undefined when it has fewer than two searchable
 * characters. A query that starts with `+` or a digit and holds only phone characters is a phone
 * search (its digits, a leading `+` or `00` dropped); anything else is folded like text.
 */
export function searchPrefix(q: string): string | undefined {
  const trimmed = q.trim();
  const compact = trimmed.replace(PHONE_SEPARATORS, '');
  const phone = /^[+0-9]/.test(trimmed) && /^\+?[0-9]+$/.test(compact);
  const prefix = clip(phone ? compact.replace(/^(\+|00)/, '') : foldText(trimmed));
  return codePoints(prefix).length >= MIN_PREFIX_LENGTH ? prefix : undefined;
}
