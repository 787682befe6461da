/**
 * `Idempotency-Key` on POST operations (docs/idempotency.md). The first request with a key runs
 * and its answer is kept for 24 h; a repeat with the same key and the same request gets that
 * answer again (status and body, `Idempotent-Replayed: true`) without running; the same key with
 * another request answers 422; a repeat while the first still runs answers 409. A first request
 * that fails wrote nothing (each operation writes in one transaction), so its key is given up and
 * a repeat runs afresh. Keys are per caller: a credential's keys are its own.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { idempotencyRecords, type IdempotencyScope } from '../data/idempotency';
import { AppError, unprocessable, validationFailed } from '../errors';
import { successBody } from './envelope';
import { logger } from './middleware';
import type { ChainEvent, RequestState } from './request';

const IDEMPOTENCY_HEADER = 'idempotency-key';
/** 1–255 printable ASCII characters (a UUID is the usual choice). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** How long a first request holds its key before a repeat may take over (well past the functions' 10 s timeout). */
const LEASE_MS = 60_000;

/** Keys sorted at every level, so two encodings of one request fingerprint the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What a repeat must match: method, path, query and body (as parsed, so whitespace and key order do not count). */
export function fingerprint(event: Pick<ChainEvent, 'httpMethod' | 'path' | 'queryStringParameters' | 'body'>): string {
  return createHash('sha256')
    .update(canonical([event.httpMethod, event.path, event.queryStringParameters ?? {}, event.body ?? null]))
    .digest('base64url');
}

const scopeOf = (s: RequestState): IdempotencyScope =>
  s.principal
    ? { companyId: s.principal.companyId, subject: s.principal.rateSubject }
    : { companyId: null, subject: 'anon' };

/**
 * Runs `run` (the operation) under the request's `Idempotency-Key`, if it is a POST that sends one.
 * A replayed answer is left in the request state for the responder, and `run` is not called.
 */
export async function idempotently<T>(
  raw: APIGatewayProxyEvent,
  s: RequestState,
  run: () => Promise<T>,
): Promise<T | undefined> {
  const event = raw as unknown as ChainEvent;
  const key = event.headers[IDEMPOTENCY_HEADER];
  if (raw.httpMethod !== 'POST' || key === undefined) return run();
  if (!KEY_PATTERN.test(key))
    throw validationFailed('The Idempotency-Key header is not valid', [
      { path: '/headers/Idempotency-Key', message: 'must be 1-255 printable ASCII characters without spaces' },
    ]);
  const scope = scopeOf(s);
  const print = fingerprint(event);
  const owner = randomUUID();
  const claim = await idempotencyRecords.claim(scope, key, {
    fingerprint: print,
    owner,
    nowMs: Date.now(),
    leaseMs: LEASE_MS,
  });
  if (!claim.claimed) {
    const { record } = claim;
    if (record.fingerprint !== print) {
      throw unprocessable('This Idempotency-Key was already used with a different request', [
        { path: '/headers/Idempotency-Key', message: 'send a new key for a different request' },
      ]);
    }
    if (record.status === 'running') {
      throw new AppError(
        'CONFLICT',
        'A request with this Idempotency-Key is still running; retry once it has answered',
        [],
        { 'Retry-After': '1' },
      );
    }
    s.replay = record.response;
    return undefined;
  }
  let value: T;
  try {
    value = await run();
  } catch (err) {
    await idempotencyRecords.release(scope, key, owner).catch(() => undefined);
    throw err;
  }
  // The operation has written: its answer goes out even if keeping it fails (a repeat after the
  // lease would then run again; the log says so).
  await idempotencyRecords
    .complete(scope, key, owner, { statusCode: 200, body: successBody(value, s.requestId) })
    .catch((error: unknown) =>
      logger.error('could not keep the answer of an idempotent request', { error: error as Error }),
    );
  return value;
}
