import { describe, expect, it } from 'vitest';
import { toAppError } from '../../shared/data/errors';
import { errorBody, successBody } from '../../shared/http/envelope';
import { asAppError } from '../../shared/http/chain/errors';
import { AppError, notFound, rateLimited, statusOf } from '../../shared/errors';
import { Page } from '../../shared/page';

describe('error mapping', () => {
  it('gives every code its contract status', () => {
    expect(statusOf).toEqual({
      VALIDATION_FAILED: 400,
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      CONFLICT: 409,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      UNPROCESSABLE: 422,
      RATE_LIMITED: 429,
      UNAVAILABLE: 503,
      INTERNAL: 500,
    });
  });

  it.each([
    ['ProvisionedThroughputExceededException', 'UNAVAILABLE'],
    ['ThrottlingException', 'UNAVAILABLE'],
    ['InternalServerError', 'UNAVAILABLE'],
    ['TimeoutError', 'UNAVAILABLE'],
    ['TransactionInProgressException', 'UNAVAILABLE'],
    ['TransactionConflictException', 'CONFLICT'],
  ])('maps the SDK error %s to %s', (name, code) => {
    expect((toAppError(Object.assign(new Error('x'), { name })) as AppError).code).toBe(code);
  });

  it('maps unreachable-network errors to UNAVAILABLE, including wrapped causes', () => {
    expect((toAppError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })) as AppError).code).toBe('UNAVAILABLE');
    expect((toAppError(Object.assign(new Error('x'), { cause: { code: 'ECONNRESET' } })) as AppError).code).toBe(
      'UNAVAILABLE',
    );
  });

  it('leaves unknown errors alone for the 500 path, which hides their message', () => {
    const err = new TypeError('cannot read x of undefined');
    expect(toAppError(err)).toBe(err);
    const mapped = asAppError(err, 'r1');
    expect(mapped.code).toBe('INTERNAL');
    expect(mapped.message).not.toContain('undefined');
  });

  it('keeps AppErrors and their headers', () => {
    const e = rateLimited(42);
    expect(asAppError(e, 'r1')).toBe(e);
    expect(e.headers).toEqual({ 'Retry-After': '42' });
    expect(asAppError(notFound('Coursing'), 'r1').message).toBe('Coursing not found');
  });
});

describe('envelope', () => {
  it('wraps data and lists', () => {
    expect(JSON.parse(successBody({ a: 1 }, 'r1'))).toEqual({
      status: 'success',
      data: { a: 1 },
      meta: { requestId: 'r1' },
    });
    const page = new Page([{ a: 1 }], { page: 1, limit: 20, total: 1, totalPages: 1, nextCursor: null });
    expect(JSON.parse(successBody(page, 'r2'))).toEqual({
      status: 'success',
      data: [{ a: 1 }],
      meta: { requestId: 'r2', pagination: { page: 1, limit: 20, total: 1, totalPages: 1, nextCursor: null } },
    });
  });

  it('renders errors with code, message and details', () => {
    const e = new AppError('VALIDATION_FAILED', 'bad', [{ path: '/x', message: 'is required' }]);
    expect(JSON.parse(errorBody(e, 'r3'))).toEqual({
      status: 'error',
      error: { code: 'VALIDATION_FAILED', message: 'bad', details: [{ path: '/x', message: 'is required' }] },
      meta: { requestId: 'r3' },
    });
  });
});
