/**
 * The error mapping: any thrown value → the contract's error (shared/errors.ts), which the responder
 * answers in the envelope. Errors of the data layer (shared/data/errors.ts) and of Middy's own steps
 * (the body parser, the validator, their HTTP statuses) get their codes; anything else is a logged
 * 500 that shows no internals.
 */
import { toAppError } from '../../data/errors';
import { AppError, type ErrorCode, validationFailed } from '../../errors';
import { logger } from './logger';

const middyStatusCodes: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED', // Middy's body parser says 422 for malformed JSON; the contract says 400
};

/** Any thrown value → the contract's error. Unknown errors become a logged 500 with no internals. */
export function asAppError(err: unknown, requestId: string): AppError {
  const known = knownAppError(err);
  if (known) return known;
  logger.error('unhandled error', { requestId, error: err as Error });
  return new AppError('INTERNAL', 'Something went wrong; quote the requestId when you report it');
}

/** The contract's error of a thrown value the mapping knows (the service's, the data layer's, Middy's); undefined for anything else. */
export function knownAppError(err: unknown): AppError | undefined {
  const mapped = toAppError(err);
  if (mapped instanceof AppError) return mapped;
  const e = err as {
    statusCode?: number;
    expose?: boolean;
    message?: string;
    cause?: { package?: string; data?: unknown };
  };
  if (e?.cause?.package === '@middy/validator' && e.statusCode === 400) {
    return validationFailed('The request is not valid', (e.cause.data as AppError['details']) ?? []);
  }
  if (e?.cause?.package === '@middy/http-json-body-parser' && e.statusCode === 422) {
    return validationFailed('The body is not valid JSON');
  }
  const code = e?.statusCode !== undefined ? middyStatusCodes[e.statusCode] : undefined;
  if (code && e.expose !== false) return new AppError(code, e.message ?? code);
  return undefined;
}
