/** Guests without AWS: contact normalization, search tokens and prefixes, the stored items, the history step. */
import { describe, expect, it } from 'vitest';
import { guestHistoryStep, guestItems, type Guest } from '../../shared/data/guests';
import {
  MAX_TOKEN_LENGTH,
  foldText,
  isLocalPhone,
  normalizeEmail,
  parsePhone,
  searchPrefix,
  searchTokens,
} from '../../shared/domain/contact';
import { normalizeGuestInput } from '../../shared/domain/guests';
import { AppError } from '../../shared/errors';

const STAMP = '2026-11-20T12:00:00.000Z';
const guest = (over: Partial<Guest> = {}): Guest => ({
  id: 1234,
  name: 'Anna Bergström',
  email: 'anna@example.com',
  phone: '+46701234567',
  createdAt: STAMP,
  updatedAt: STAMP,
  ...over,
});

describe('foldText', () => {
  it.each([
    ['Åsa', 'asa'],
    ['Anna-Karin Öberg', 'anna karin oberg'],
    ['  ZOË   Ångström ', 'zoe angstrom'],
    ["O'Brien", 'obrien'],
    ['Søren Ærø', 'soren aero'],
    ['Straße', 'strasse'],
    ['Łukasz', 'lukasz'],
    ['anna.berg+x@example.com', 'anna berg x example com'],
    ['İpek', 'ipek'],
  ])('%s → %s', (input, folded) => {
    expect(foldText(input)).toBe(folded);
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Anna.Berg@Example.COM ')).toBe('anna.berg@example.com');
  });
});

describe('parsePhone (libphonenumber-js)', () => {
  it.each([
    ['+46 70 123 45 67', undefined, '+46701234567'],
    ['0046 (70) 123-45-67', undefined, '+46701234567'],
    ['+1.415.555.0100', undefined, '+14155550100'],
    ['+44 20 7946 0958', undefined, '+442079460958'],
    ['+46 8 123 456', undefined, '+468123456'],
    ['070-123 45 67', 'SE', '+46701234567'],
    ['08/123 456 78', 'SE', '+46812345678'],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['(415) 555-0100', 'US', '+14155550100'],
    ['06 12 34 56 78', 'FR', '+33612345678'],
    ['+46 70 123 45 67', 'GB', '+46701234567'],
    ['0046 70 123 45 67', 'US', '+46701234567'],
    ['011 46 70 123 45 67', 'US', '+46701234567'],
  ])('%s (at %s) → %s', (raw, country, e164) => {
    expect(parsePhone(raw, country)).toEqual({ ok: true, e164 });
  });

  it.each([
    ['070-123 45 67', undefined, 'country code'],
    ['(070) 123 45 67', null, 'country code'],
    ['070 123 45 67', 'AQ', 'local numbers of AQ cannot be read'],
    ['+46 70 123 45 67 ext 3', undefined, 'only digits'],
    ['+46 70+123', undefined, 'only digits'],
    ['+46 70 CALL ME', undefined, 'only digits'],
    ['+4670123', undefined, 'not a possible phone number'],
    ['+46 00 123 4567', undefined, 'not a possible phone number'],
    ['+1234567890123456', undefined, 'not a possible phone number'],
    ['+999 1234 5678', undefined, 'not a possible phone number'],
    ['+0701234567', undefined, 'not a possible phone number'],
    ['070 123', 'SE', 'not a possible phone number in SE'],
    ['070 123 45 67 89 01', 'SE', 'not a possible phone number in SE'],
    ['', undefined, 'only digits'],
  ])('refuses %j at %s (%s)', (raw, country, says) => {
    const out = parsePhone(raw, country);
    expect(out.ok).toBe(false);
    expect(out.ok ? '' : out.problem).toContain(says);
  });

  it('tells local numbers (which need a country) from international ones', () => {
    expect(['070-123 45 67', '(0)8 123', '4670123'].map(isLocalPhone)).toEqual([true, true, true]);
    expect(['+46 70', '0046 70', 'anna', '+46 CALL'].map(isLocalPhone)).toEqual([false, false, false, false]);
  });
});

describe('searchTokens', () => {
  it('indexes the name from each word on, the folded email and the phone digits', () => {
    expect(
      searchTokens({ name: 'Anna Maria Bergström', email: 'am.berg@example.com', phone: '+46701234567' }).sort(),
    ).toEqual(['am berg example com', 'anna maria bergstrom', 'bergstrom', 'maria bergstrom', '46701234567'].sort());
  });

  it('drops a token that starts another one', () => {
    // "anna" starts "anna example com"; "anna anna" folds to tokens "anna anna" and "anna".
    expect(searchTokens({ name: 'Anna', email: 'anna@example.com', phone: null })).toEqual(['anna example com']);
    expect(searchTokens({ name: 'Anna Anna', email: null, phone: null })).toEqual(['anna anna']);
  });

  it('leaves out single characters and starts at most at the first ten words', () => {
    expect(searchTokens({ name: 'J', email: null, phone: '+46701234567' })).toEqual(['46701234567']);
    const name = Array.from({ length: 14 }, (_, i) => `w${String.fromCharCode(97 + i)}`).join(' ');
    const tokens = searchTokens({ name, email: null, phone: null });
    expect(tokens).toHaveLength(10);
    expect(tokens.at(-1)).toBe('wj wk wl wm wn');
  });

  it('clips long tokens to the maximum length without a trailing space', () => {
    const tokens = searchTokens({ name: `${'a'.repeat(63)} bcd`, email: null, phone: null });
    expect(tokens).toEqual(['a'.repeat(63), 'bcd']);
    expect(Math.max(...searchTokens({ name: 'x'.repeat(200), email: null, phone: null }).map((t) => t.length))).toBe(
      MAX_TOKEN_LENGTH,
    );
  });
});

describe('searchPrefix', () => {
  it.each([
    ['åsa', 'asa'],
    ['  Ber ', 'ber'],
    ['Anna B', 'anna b'],
    ['anna.berg@ex', 'anna berg ex'],
    ['+46 70 12', '467012'],
    ['0046-70', '4670'],
    ['4670', '4670'],
    ['12 Main Street', '12 main street'],
  ])('%j → %j', (q, prefix) => {
    expect(searchPrefix(q)).toBe(prefix);
  });

  it.each(['a ', ' .b', '+4', '00', '!!'])('has no prefix for %j', (q) => {
    expect(searchPrefix(q)).toBeUndefined();
  });

  it.each([
    ['070-123 45 67', 'SE', '46701234567'],
    ['070 12', 'SE', '467012'],
    ['08-12', 'SE', '46812'],
    ['06 12', 'IT', '390612'],
    ['(415) 55', 'US', '141555'],
    ['+46 70 12', 'GB', '467012'],
    ['0046 70', 'US', '4670'],
    ['Anna B', 'SE', 'anna b'],
  ])("reads a local number in the location's country: %j at %s → %j", (q, country, prefix) => {
    expect(searchPrefix(q, country)).toBe(prefix);
  });

  it('matches the tokens of the guest it names', () => {
    const tokens = searchTokens({ name: 'Åsa-Lena Öberg', email: 'ASA@Example.com', phone: '+46701234567' });
    for (const q of ['åsa', 'ASA LE', 'lena öb', 'öberg', 'asa@exa', '+46 701', '0046701']) {
      expect(
        tokens.some((t) => t.startsWith(searchPrefix(q)!)),
        q,
      ).toBe(true);
    }
    for (const q of ['berg', 'sa', '701234', 'example'])
      expect(
        tokens.some((t) => t.startsWith(searchPrefix(q)!)),
        q,
      ).toBe(false);
  });
});

describe('normalizeGuestInput', () => {
  it('trims the name, lower-cases the email and stores the phone as E.164', () => {
    expect(
      normalizeGuestInput({ name: '  Anna   Berg ', email: 'Anna@Example.com', phone: '0046 70 123 45 67' }),
    ).toEqual({
      name: 'Anna Berg',
      email: 'anna@example.com',
      phone: '+46701234567',
    });
    expect(normalizeGuestInput({ name: 'Anna', phone: '+46701234567' })).toEqual({
      name: 'Anna',
      email: null,
      phone: '+46701234567',
    });
  });

  it('refuses a guest without email and phone, naming both fields', () => {
    const err = (() => {
      try {
        normalizeGuestInput({ name: 'Anna' });
      } catch (e) {
        return e;
      }
    })() as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(400);
    expect(err.details.map((d) => d.path)).toEqual(['/email', '/phone']);
  });

  it('refuses a phone without a country code with a clear message, unless it is given at a location with a country', () => {
    expect(() => normalizeGuestInput({ name: 'Anna', phone: '070 123 45 67' })).toThrowError(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        details: [{ path: '/phone', message: expect.stringContaining('country code') }],
      }),
    );
    expect(normalizeGuestInput({ name: 'Anna', phone: '070 123 45 67' }, 'SE').phone).toBe('+46701234567');
  });

  it('takes a guest without a name (it needs an email or a phone)', () => {
    expect(normalizeGuestInput({ email: 'Anna@Example.com' })).toEqual({
      name: null,
      email: 'anna@example.com',
      phone: null,
    });
    expect(searchTokens({ name: null, email: null, phone: '+46701234567' })).toEqual(['46701234567']);
  });
});

describe('stored items', () => {
  it('writes the guest, one item per contact and one index item per token, all under the company', () => {
    const g = guest();
    const tokens = searchTokens(g);
    const items = guestItems(7, g, tokens);
    expect(items.map((i) => i.sk)).toEqual([
      'GUEST#000000001234',
      'GUESTCONTACT#E#anna@example.com',
      'GUESTCONTACT#P#+46701234567',
      'GUEST#000000001234#T#46701234567',
      'GUEST#000000001234#T#anna bergstrom',
      'GUEST#000000001234#T#anna example com',
      'GUEST#000000001234#T#bergstrom',
    ]);
    for (const i of items) expect(i.pk).toBe('C#7');
    const index = items.filter((i) => i.entity === 'GUEST_SEARCH');
    expect(index.map((i) => [i.gsi1pk, i.gsi1sk])).toEqual([
      ['C#7#GS#46', '46701234567#000000001234'],
      ['C#7#GS#an', 'anna bergstrom#000000001234'],
      ['C#7#GS#an', 'anna example com#000000001234'],
      ['C#7#GS#be', 'bergstrom#000000001234'],
    ]);
    // Every index item carries the guest and its tokens in index order (for listing a guest once).
    for (const i of index)
      expect(i).toMatchObject({ ...g, tokens: ['46701234567', 'anna bergstrom', 'anna example com', 'bergstrom'] });
  });

  it('writes no contact item for a missing email or phone', () => {
    const items = guestItems(7, guest({ email: null }), ['anna bergstrom']);
    expect(items.filter((i) => i.entity === 'GUEST_CONTACT').map((i) => i.sk)).toEqual(['GUESTCONTACT#P#+46701234567']);
  });
});

/** An Update's SET and ADD clauses as attribute → value, with the expression's names and values resolved. */
function resolved(update: {
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}) {
  const [, set = '', add = ''] = /^(?:SET (.*?))?(?: ?ADD (.*))?$/.exec(update.UpdateExpression!)!;
  const clause = (text: string, separator: string) =>
    Object.fromEntries(
      text
        .split(', ')
        .filter(Boolean)
        .map((part) => part.split(separator))
        .map(([name, value]) => [update.ExpressionAttributeNames![name!], update.ExpressionAttributeValues![value!]]),
    );
  return { set: clause(set, ' = '), add: clause(add, ' ') };
}

describe('guestHistoryStep', () => {
  it('adds the counter deltas and sets the visit time on the guest-location item', () => {
    const step = guestHistoryStep(7, 1234, 101, { bookings: 1, noShows: 0, lastVisitAt: STAMP });
    expect(step.item.Update).toMatchObject({ Key: { pk: 'C#7', sk: 'GUEST#000000001234#H#000000000101' } });
    expect(step.item.Update!.ConditionExpression).toBeUndefined();
    expect(resolved(step.item.Update!)).toEqual({
      set: { entity: 'GUEST_HISTORY', companyId: 7, guestId: 1234, locationId: 101, lastVisitAt: STAMP },
      add: { bookingCount: 1 },
    });
    expect(resolved(guestHistoryStep(7, 1234, 101, { cancellations: 1, bookings: -1 }).item.Update!)).toEqual({
      set: { entity: 'GUEST_HISTORY', companyId: 7, guestId: 1234, locationId: 101 },
      add: { bookingCount: -1, cancellationCount: 1 },
    });
  });

  it('refuses an empty change', () => {
    expect(() => guestHistoryStep(7, 1234, 101, { bookings: 0 })).toThrow(/empty/);
  });
});
