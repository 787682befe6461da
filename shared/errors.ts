/**
 * Typed errors. Domain and data code throw these; the error middleware is the one place that
 * turns them into the contract's envelope (docs/api.md).
 */
export interface FieldProblem {
  path: string;
  message: string;
}

export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNPROCESSABLE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'INTERNAL';

export const statusOf: Record<ErrorCode, number> = {
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
};

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: FieldProblem[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = code;
    this.status = statusOf[code];
  }
}

export const validationFailed = (message: string, details: FieldProblem[] = []) =>
  new AppError('VALIDATION_FAILED', message, details);
export const unauthenticated = (message = 'A valid API key or bearer token is required') =>
  new AppError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const unprocessable = (message: string, details: FieldProblem[] = []) =>
  new AppError('UNPROCESSABLE', message, details);
/**
 * Seconds a client should wait after a 503: the SDK has already retried with backoff before the
 * error leaves, so what remains is a throttle clearing or the database coming back.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;
export const unavailable = (message = 'A dependency is unavailable; try again shortly') =>
  new AppError('UNAVAILABLE', message, [], { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
export const rateLimited = (retryAfterSeconds: number, message = 'Hourly request limit reached') =>
  new AppError('RATE_LIMITED', message, [], { 'Retry-After': String(retryAfterSeconds) });
