/** Booking members without AWS: who a member is, the party limit, the views, and the schemas' bounds. */
import { describe, expect, it } from 'vitest';
import type { StoredMember } from '../../shared/data/bookingMembers';
import {
  memberLimit,
  memberRequest,
  memberResource,
  normalizeName,
  publicMember,
} from '../../shared/domain/bookingMembers';
import { AppError } from '../../shared/errors';
import { operation as addBookingMember } from '../../shared/http/operations/addBookingMember';
import { operation as addBookingMemberByCode } from '../../shared/http/operations/addBookingMemberByCode';
import { operation as listBookingMembersByCode } from '../../shared/http/operations/listBookingMembersByCode';
import { operation as rsvpBooking } from '../../shared/http/operations/rsvpBooking';
import { operation as updateBookingMember } from '../../shared/http/operations/updateBookingMember';

const STAMP = '2026-11-20T12:00:00.000Z';
const stored: StoredMember = {
  id: '0b2d4f6a-8c1e-4a3b-9d5f-7a9c1e3b5d7f',
  bookingId: '5a7c9e1b-2d4f-4a6b-8c0d-1e3f5a7b9c2d',
  userId: 5001,
  guestName: 'Åsa Lind',
  guestEmail: 'asa@example.com',
  rsvpStatus: 'accepted',
  version: 2,
  createdAt: STAMP,
  updatedAt: STAMP,
  locationId: 101,
};

/** The field paths of the 400 that `fn` throws. */
function refusedPaths(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    return (err as AppError).details.map((d) => d.path);
  }
  throw new Error('expected a 400');
}

describe('memberRequest', () => {
  it('takes a user id alone: the guest user supplies name and email', () => {
    expect(memberRequest({ userId: 42 })).toEqual({ userId: 42 });
  });

  it('normalizes a name (trimmed, one space between words) and an email (trimmed, lower case)', () => {
    expect(memberRequest({ guestName: '  Karin \t Öberg ', guestEmail: ' Karin.Oberg@Example.COM ' })).toEqual({
      userId: null,
      guestName: 'Karin Öberg',
      guestEmail: 'karin.oberg@example.com',
    });
    expect(memberRequest({ guestName: 'Plus one' })).toEqual({ userId: null, guestName: 'Plus one', guestEmail: null });
  });

  it.each([
    ['neither userId nor guestName', {}, ['/userId', '/guestName']],
    ['userId with guestName', { userId: 42, guestName: 'X' }, ['/guestName']],
    ['userId with guestEmail', { userId: 42, guestEmail: 'x@example.com' }, ['/guestEmail']],
    ['userId with both', { userId: 42, guestName: 'X', guestEmail: 'x@example.com' }, ['/guestName', '/guestEmail']],
    ['guestEmail alone', { guestEmail: 'x@example.com' }, ['/userId', '/guestName']],
  ])('refuses %s with 400 naming the fields', (_, input, paths) => {
    expect(refusedPaths(() => memberRequest(input))).toEqual(paths);
  });
});

describe('normalizeName', () => {
  it('trims and folds inner white space', () => {
    expect(normalizeName('\n Anna   Maria\u00a0Berg  ')).toBe('Anna Maria Berg');
  });
});

describe('memberLimit', () => {
  it('is the guest count plus ten (walk-ins of 0 guests included)', () => {
    expect(memberLimit(0)).toBe(10);
    expect(memberLimit(4)).toBe(14);
    expect(memberLimit(100)).toBe(110);
  });
});

describe('views', () => {
  it('shows staff every field but the stored location', () => {
    const { locationId: _, ...expected } = stored;
    expect(memberResource(stored)).toEqual(expected);
  });

  it('shows code holders the name and reply only', () => {
    expect(publicMember(stored)).toEqual({ guestName: 'Åsa Lind', rsvpStatus: 'accepted' });
  });
});

/** Field paths a generated validator reports, or [] when the value passes. */
function problems(
  validate: { (data: unknown): boolean; errors?: { instancePath: string; params: Record<string, string> }[] | null },
  data: unknown,
): string[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map(
    (e) => e.instancePath || `/${e.params.missingProperty ?? e.params.additionalProperty ?? ''}`,
  );
}

describe('schemas', () => {
  it.each(['K7MQ2XHP', 'ABCDEFGH', '23456789'])('accepts the code %s', (code) => {
    expect(problems(listBookingMembersByCode.validators.path, { code })).toEqual([]);
  });

  it.each([
    ['7 characters', 'K7MQ2XH'],
    ['9 characters', 'K7MQ2XHPA'],
    ['lower case', 'k7mq2xhp'],
    ['the look-alike O', 'K7MQ2XHO'],
    ['the look-alike 0', 'K7MQ2XH0'],
    ['the look-alike 1', 'K7MQ2XH1'],
    ['the look-alike I', 'K7MQ2XHI'],
    ['the look-alike L', 'K7MQ2XHL'],
    ['a space', 'K7MQ 2XH'],
  ])('refuses a code with %s', (_, code) => {
    expect(problems(listBookingMembersByCode.validators.path, { code })).toEqual(['/code']);
    expect(
      problems(rsvpBooking.validators.body, {
        confirmationCode: code,
        guestName: 'A',
        guestEmail: 'a@example.com',
        rsvpStatus: 'accepted',
      }),
    ).toEqual(['/confirmationCode']);
  });

  it('takes every status on an add or update, and defaults it on add', () => {
    for (const rsvpStatus of ['invited', 'accepted', 'declined', 'tentative']) {
      expect(problems(updateBookingMember.validators.body, { rsvpStatus })).toEqual([]);
      expect(problems(addBookingMemberByCode.validators.body, { guestName: 'A', rsvpStatus })).toEqual([]);
    }
    expect(problems(updateBookingMember.validators.body, { rsvpStatus: 'maybe' })).toEqual(['/rsvpStatus']);
    expect(problems(updateBookingMember.validators.body, {})).toEqual(['/rsvpStatus']);
  });

  it('takes only an answer on an RSVP: invited is not one', () => {
    const body = { confirmationCode: 'K7MQ2XHP', guestName: 'A', guestEmail: 'a@example.com' };
    for (const rsvpStatus of ['accepted', 'declined', 'tentative'])
      expect(problems(rsvpBooking.validators.body, { ...body, rsvpStatus })).toEqual([]);
    expect(problems(rsvpBooking.validators.body, { ...body, rsvpStatus: 'invited' })).toEqual(['/rsvpStatus']);
  });

  it.each([
    ['an empty name', { guestName: '' }, '/guestName'],
    ['a blank name', { guestName: '   ' }, '/guestName'],
    ['a name of 201 characters', { guestName: 'a'.repeat(201) }, '/guestName'],
    ['a bad email', { guestName: 'A', guestEmail: 'not-an-email' }, '/guestEmail'],
    ['an email of 255 characters', { guestName: 'A', guestEmail: `${'a'.repeat(243)}@example.com` }, '/guestEmail'],
    ['a user id of 0', { userId: 0 }, '/userId'],
    ['a user id that is a string', { userId: '42' }, '/userId'],
    ['an unknown field', { guestName: 'A', vip: true }, '/vip'],
  ])('refuses an add with %s', (_, body, path) => {
    expect(problems(addBookingMember.validators.body, body)).toContain(path);
  });

  it('accepts names of 1 and 200 characters and emails of 254', () => {
    expect(problems(addBookingMember.validators.body, { guestName: 'a' })).toEqual([]);
    expect(
      problems(addBookingMember.validators.body, {
        guestName: 'a'.repeat(200),
        guestEmail: `${'a'.repeat(242)}@example.com`,
      }),
    ).toEqual([]);
  });

  it('requires every RSVP field', () => {
    expect(problems(rsvpBooking.validators.body, {}).sort()).toEqual([
      '/confirmationCode',
      '/guestEmail',
      '/guestName',
      '/rsvpStatus',
    ]);
  });
});
