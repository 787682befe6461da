/** Schema problems as details (shared/http/validation.ts): one per field, the rule in words (docs/api.md, "Answers"). */
import { describe, expect, it } from 'vitest';
import { operation as createBooking } from '../../shared/http/operations/createBooking';
import { operation as getBooking } from '../../shared/http/operations/getBooking';
import { eventValidator } from '../../shared/http/validation';

const body = {
  locationId: 101,
  bookingDate: '2026-12-18',
  startTime: '19:00',
  guestCount: 2,
  guestName: 'Ada Lovelace',
};
const problemsOf = (validators: Parameters<typeof eventValidator>[0], event: Record<string, unknown>) => {
  const validate = eventValidator(validators)!;
  validate({ body: {}, queryStringParameters: {}, pathParameters: {}, ...event });
  return validate.errors ?? [];
};
const bookingProblems = (extra: Record<string, unknown>) =>
  problemsOf(createBooking.validators, { body: { ...body, ...extra } });

describe('schema problems in words', () => {
  it('takes a valid body', () => {
    expect(bookingProblems({})).toEqual([]);
  });

  it('answers one detail for a nullable field with a format, in words', () => {
    expect(bookingProblems({ guestEmail: 'not-an-email' })).toEqual([
      { path: '/guestEmail', message: 'must be an email address (e.g. ada@example.com)' },
    ]);
    expect(bookingProblems({ guestEmail: 5 })).toEqual([{ path: '/guestEmail', message: 'must be a string or null' }]);
  });

  it('says a date and a time in words, the format before the pattern, never the regular expression', () => {
    for (const bookingDate of ['2026-13-45', 'tomorrow', '10000-01-01'])
      expect(bookingProblems({ bookingDate })).toEqual([
        { path: '/bookingDate', message: 'must be a date YYYY-MM-DD (a real day)' },
      ]);
    expect(bookingProblems({ bookingDate: '9999-12-31' })).toEqual([
      { path: '/bookingDate', message: 'must be a date YYYY-MM-DD of a year up to 9998' },
    ]);
    expect(bookingProblems({ startTime: '24:00' })).toEqual([
      { path: '/startTime', message: 'must be a time HH:MM (00:00-23:59)' },
    ]);
  });

  it('lists a choice of values once, and words bounds, requirements and unknown fields', () => {
    expect(bookingProblems({ defaultTabStrategy: 'both' })).toEqual([
      { path: '/defaultTabStrategy', message: 'must be one of "single", "per_resource"' },
    ]);
    expect(bookingProblems({ guestCount: 101 })).toEqual([{ path: '/guestCount', message: 'must be at most 100' }]);
    expect(bookingProblems({ guestCount: -1 })).toEqual([{ path: '/guestCount', message: 'must be at least 0' }]);
    expect(bookingProblems({ occasion: '' })).toEqual([{ path: '/occasion', message: 'must not be empty' }]);
    expect(bookingProblems({ occasion: 'x'.repeat(101) })).toEqual([
      { path: '/occasion', message: 'must be at most 100 characters long' },
    ]);
    expect(bookingProblems({ extra: 1, locationId: undefined })).toEqual([
      { path: '/locationId', message: 'is required' },
      { path: '/extra', message: 'is not an accepted field' },
    ]);
  });

  it('answers a path id that is not a UUID (GET /api/v1/bookings/rsvp) with "must be a UUID"', () => {
    expect(problemsOf(getBooking.validators, { pathParameters: { id: 'rsvp' } })).toEqual([
      { path: '/id', message: 'must be a UUID (e.g. 5b0e3c9d-2f4a-4c1e-9d7b-8a6f1e2d3c4b)' },
    ]);
  });
});
