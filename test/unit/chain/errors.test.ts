/**
 * The error mapping (shared/http/chain/errors.ts) for what Middy's own steps throw; the data layer's
 * errors and the envelope are in test/unit/errors.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { asAppError } from '../../../shared/http/chain/errors';

/** An HTTP error as Middy's steps throw them (@middy/util's createError: exposed under 500). */
const createError = (statusCode: number, message: string, options: { cause: Record<string, unknown> }) =>
  Object.assign(new Error(message, options), { statusCode, status: statusCode, expose: statusCode < 500 });

describe('asAppError, for the errors of Middy’s steps', () => {
  it("gives the validator's field problems as a 400 with details", () => {
    const details = [{ path: '/title', message: 'must NOT have fewer than 1 characters' }];
    const err = createError(400, 'Event object failed validation', {
      cause: { package: '@middy/validator', data: details },
    });
    expect(asAppError(err, 'r1')).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, details });
  });

  it("turns the body parser's 422 for malformed JSON into the contract's 400, and keeps its 415", () => {
    const malformed = createError(422, 'Invalid or malformed JSON was provided', {
      cause: { package: '@middy/http-json-body-parser', data: '{' },
    });
    expect(asAppError(malformed, 'r1')).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    const media = createError(415, 'Unsupported Media Type', { cause: { package: '@middy/http-json-body-parser' } });
    expect(asAppError(media, 'r1')).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
  });

  it('hides an HTTP error that is not to be exposed behind a 500', () => {
    const hidden = Object.assign(new Error('upstream detail'), { statusCode: 404, expose: false });
    expect(asAppError(hidden, 'r1')).toMatchObject({ code: 'INTERNAL', status: 500 });
    expect(asAppError(hidden, 'r1').message).not.toContain('upstream');
  });
});
