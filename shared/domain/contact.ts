/**
 * Contact details and search terms of guests, as pure functions: email and phone normalization
 * (what makes two guests "the same"), and the search tokens a guest is found by.
 *
 * Phone numbers are read by libphonenumber-js (`core`, with its `min` metadata less the display
 * formats: shared/domain/phoneMetadata.ts), which knows every country's calling code, trunk
 * prefix, lengths and number ranges. A local number needs the country it was typed in.
 */
import { AsYouType, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/core';
import { phoneMetadata } from './phoneMetadata';

/** What people write between the digits of a phone number. */
const PHONE_SEPARATORS = /[\s().\/-]/g;
/** A phone number as typed: digits and separators, `+` only first. */
const PHONE_CHARACTERS = /^\+?[0-9]+$/;

/** Longest search token (and query prefix), in characters: longer queries match on their start. */
export const MAX_TOKEN_LENGTH = 64;
/** A name is searchable from each of its first words; a long name's later words only extend them. */
const MAX_NAME_WORDS = 10;
/** Queries shorter than this (after normalization) would match too much to be useful. */
const MIN_PREFIX_LENGTH = 2;

/** Letters without accents or case ("Åsa" → "asa"); letters that do not decompose get a plain spelling. */
const plainSpelling: Record<string, string> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

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

/** The digits (and a leading `+`) of what was typed, `00` before a country code read as `+`; undefined if it is not a phone number. */
function compactPhone(raw: string): string | undefined {
  const compact = raw.trim().replace(PHONE_SEPARATORS, '');
  if (!PHONE_CHARACTERS.test(compact)) return undefined;
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}

/** Whether `raw` is written as a local number (phone characters, no `+` or `00` before a country code): reading it needs a country. */
export const isLocalPhone = (raw: string): boolean => compactPhone(raw)?.startsWith('+') === false;

/** A country libphonenumber-js has a numbering plan for (ISO 3166-1 alpha-2, upper case). */
const phoneCountry = (country: string | null | undefined): CountryCode | undefined =>
  country && Object.hasOwn(phoneMetadata.countries, country) ? (country as CountryCode) : undefined;

/**
 * A phone number in E.164 (`+46701234567`). Spaces, dashes, dots, slashes and parentheses may
 * stand between the digits; `+` or `00` starts an international number. A number without its
 * country code is read as a local number of `country` (a location's, ISO 3166-1 alpha-2):
 * `070-123 45 67` in SE is +46701234567. Without a country a local number is refused, since the
 * same national number belongs to different people in different countries. A number that cannot
 * exist (a length or leading digits no number of its country has) is refused.
 */
export function parsePhone(raw: string, country?: string | null): PhoneResult {
  const compact = compactPhone(raw);
  if (compact === undefined)
    return {
      ok: false,
      problem: 'may contain only digits, spaces, dashes, dots, slashes, parentheses and a leading +',
    };
  const local = !compact.startsWith('+');
  const defaultCountry = phoneCountry(country);
  if (local && !defaultCountry) {
    return {
      ok: false,
      problem: country
        ? `has no country code, and local numbers of ${country} cannot be read: write it as +46 70 123 45 67 or 0046 70 123 45 67`
        : 'has no country code: write it as +46 70 123 45 67 or 0046 70 123 45 67 (a local number is read in the country of the location it is given at, when that location has one)',
    };
  }
  const parsed = parsePhoneNumberFromString(compact, defaultCountry ? { defaultCountry } : {}, phoneMetadata);
  if (!parsed?.isValid()) {
    return {
      ok: false,
      problem: local
        ? `is not a possible phone number in ${defaultCountry}: check the digits, or write it with its country code`
        : 'is not a possible phone number: check the country code and the number of digits',
    };
  }
  return { ok: true, e164: parsed.number };
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
export function searchTokens(guest: { name: string | null; email: string | null; phone: string | null }): string[] {
  const all = [
    ...wordStarts(guest.name ?? ''),
    ...(guest.email ? [foldText(guest.email)] : []),
    ...(guest.phone ? [guest.phone.slice(1)] : []),
  ];
  return prefixFree(all, MIN_PREFIX_LENGTH);
}

/** A text folded, from each of its first MAX_NAME_WORDS words on: "anna maria berg", "maria berg", "berg". */
export const wordStarts = (text: string): string[] => {
  const words = foldText(text).split(' ').filter(Boolean);
  return words.slice(0, MAX_NAME_WORDS).map((_, i) => words.slice(i).join(' '));
};

/** Tokens clipped, at least `minLength` long, without repeats and without one that starts another. */
export function prefixFree(all: readonly string[], minLength: number): string[] {
  const tokens = [...new Set(all.map(clip))].filter((t) => codePoints(t).length >= minLength);
  return tokens.filter((t) => !tokens.some((other) => other !== t && other.startsWith(t)));
}

/** The folded, clipped query a search reads by, or undefined when it is shorter than `minLength`. */
export function textPrefix(q: string, minLength: number): string | undefined {
  const prefix = clip(foldText(q.trim()));
  return codePoints(prefix).length >= minLength ? prefix : undefined;
}

/**
 * The digits a phone query stands for, or undefined when `q` is not one (it starts with `+`, `(` or a
 * digit and holds only phone characters). `+` or `00` starts an international number: its digits.
 * Without them, and with a country, it is a local number, whole or its start: `070 12` in SE is
 * `467012`. Without a country its digits are taken as they are (as if the `+` were left out).
 */
function phonePrefix(q: string, country: string | null | undefined): string | undefined {
  if (!/^[+(0-9]/.test(q)) return undefined;
  const compact = compactPhone(q);
  if (compact === undefined) return undefined;
  const defaultCountry = phoneCountry(country);
  if (compact.startsWith('+') || !defaultCountry) return compact.replace(/^\+/, '');
  const typed = new AsYouType(defaultCountry, phoneMetadata);
  typed.input(compact);
  return typed.getNumberValue()?.slice(1) ?? compact;
}

/**
 * The token prefix a search query stands for, or undefined when it has fewer than two searchable
 * characters. A phone query (see phonePrefix) is searched by its digits, a local one read in
 * `country` (the location the search names); anything else is folded like text.
 */
export function searchPrefix(q: string, country?: string | null): string | undefined {
  const trimmed = q.trim();
  const phone = phonePrefix(trimmed, country);
  const prefix = clip(phone ?? foldText(trimmed));
  return codePoints(prefix).length >= MIN_PREFIX_LENGTH ? prefix : undefined;
}
