/**
 * `Idempotency-Key` on POST operations (docs/idempotency.md). The first request with a key runs and
 * its answer is kept for 24 h; a repeat with the same key and the same request gets that answer
 * again (status and body, `Idempotent-Replayed: true`) without running; the same key with another
 * request answers 422; a repeat while the first still runs answers 409. A first request that fails
 * wrote nothing (each operation writes in one transaction), so its key is given up and a repeat runs
 * afresh. Keys are per caller: a credential's keys are its own, an anonymous caller's its client
 * network's. A replay re-checks the locations the request names and its first answer acted at, as
 * running it would.
 *
 * The last step before the operation, so a request refused by the credential, the rate window, the
 * permission, the body or the schema keeps nothing:
 *
 * - `before`: claims the key, or finds the first answer and leaves it in the state as the replay, so
 *   the domain call (domainCall.ts) answers it instead of running the operation. The claim is a
 *   write: it waits for the rate window's verdict like every write (the write gate), so a refused
 *   request leaves no record.
 * - `after`: keeps the answer the operation gave under the claimed key.
 * - `onError`: gives the claimed key up.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type IdempotencyScope, idempotencyRecords, type StoredAnswer } from '../../data/idempotency';
import { gateWrites } from '../../data/writeGate';
import { assertLocationAllowed, headerLocation } from '../../domain/access';
import { clientNetwork } from '../../domain/clientNetwork';
import { AppError, unprocessable, validationFailed } from '../../errors';
import type { RouteRuntime } from '../../routes';
import { logger } from './logger';
import { isOutcome, render } from './outcome';
import { type ChainState, type ChainStep, type HttpEvent, stateOf } from './state';

const IDEMPOTENCY_HEADER = 'idempotency-key';
const LOCATION_HEADER = 'x-location-id';
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

/**
 * What a repeat must match: method, path, query, body (as parsed, so whitespace and key order do
 * not count) and the `X-Location-Id` header, which chooses the location an operation acts at.
 */
export function fingerprint(
  event: Pick<HttpEvent, 'httpMethod' | 'path' | 'queryStringParameters' | 'body'> & {
    headers?: HttpEvent['headers'];
  },
): string {
  return createHash('sha256')
    .update(
      canonical([
        event.httpMethod,
        event.path,
        event.queryStringParameters ?? {},
        event.body ?? null,
        event.headers?.[LOCATION_HEADER] ?? null,
      ]),
    )
    .digest('base64url');
}

/** A credential's keys are its own; an anonymous caller's are its client network's (the one its rate window counts). */
const scopeOf = (s: ChainState): IdempotencyScope =>
  s.principal
    ? { companyId: s.principal.companyId, subject: s.principal.rateSubject }
    : { companyId: null, subject: `ip:${clientNetwork(s.sourceIp)}` };

/**
 * The locations the first answer says the operation acted at: `locationId` or `locationIds` of its
 * `data` (or of each entry, for a list). A request that names its resource by path (a booking's
 * cancel) names its location only there.
 */
function answeredLocations(answer: StoredAnswer): unknown[] {
  let data: unknown;
  try {
    data = (JSON.parse(answer.body) as { data?: unknown }).data;
  } catch {
    return [];
  }
  const entries = Array.isArray(data) ? data : [data];
  return entries.flatMap((entry) => {
    if (entry === null || typeof entry !== 'object') return [];
    const { locationId, locationIds } = entry as { locationId?: unknown; locationIds?: unknown };
    return [locationId, ...(Array.isArray(locationIds) ? locationIds : [])];
  });
}

/**
 * Before a replay: the locations the request names (its `X-Location-Id` header, a `locationId` in
 * its query or body) and those its first answer acted at must still be the caller's to act on. A
 * key limited since the first request gets the 403 it would get running, not the first answer.
 */
function assertMayStillAct(s: ChainState, event: HttpEvent, answer: StoredAnswer): void {
  const { principal } = s;
  if (!principal) return;
  const named = [
    headerLocation(event.headers[LOCATION_HEADER]),
    Number(event.queryStringParameters?.locationId),
    (event.body as { locationId?: unknown } | null | undefined)?.locationId,
    ...answeredLocations(answer),
  ];
  for (const id of named) if (typeof id === 'number' && Number.isInteger(id)) assertLocationAllowed(principal, id);
}

/** The step, for a POST operation; other methods are idempotent already and have none. */
export function idempotency(route: Pick<RouteRuntime, 'method'>): ChainStep[] {
  if (route.method !== 'POST') return [];
  return [
    {
      before: async (request) => {
        const { event } = request;
        const key = event.headers[IDEMPOTENCY_HEADER];
        if (event.httpMethod !== 'POST' || key === undefined) return;
        if (!KEY_PATTERN.test(key))
          throw validationFailed('The Idempotency-Key header is not valid', [
            { path: '/headers/Idempotency-Key', message: 'must be 1-255 printable ASCII characters without spaces' },
          ]);
        const s = stateOf(request);
        if (!s.verdict) throw new Error('the rate window must run before the idempotency step');
        const scope = scopeOf(s);
        const print = fingerprint(event);
        const owner = randomUUID();
        const claim = await gateWrites(s.verdict, () =>
          idempotencyRecords.claim(scope, key, { fingerprint: print, owner, nowMs: Date.now(), leaseMs: LEASE_MS }),
        );
        if (claim.claimed) {
          s.claim = { scope, key, owner };
          return;
        }
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
        assertMayStillAct(s, event, record.response);
        s.replay = record.response;
      },
      after: async (request) => {
        const s = stateOf(request);
        const outcome = request.response;
        if (!s.claim) return;
        const { scope, key, owner } = s.claim;
        // Only the envelope is kept (no POST answers a file, a probe or a document): any other answer gives the key up.
        if (!isOutcome(outcome) || outcome.kind !== 'result') {
          await idempotencyRecords.release(scope, key, owner).catch(() => undefined);
          return;
        }
        const { statusCode, body } = render(outcome, s.requestId);
        // The operation has written: its answer goes out even if keeping it fails (a repeat after the
        // lease would then run again; the log says so).
        await idempotencyRecords
          .complete(scope, key, owner, { statusCode, body })
          .catch((error: unknown) =>
            logger.error('could not keep the answer of an idempotent request', { error: error as Error }),
          );
      },
      onError: async (request) => {
        const claim = request.internal.brigade?.claim;
        if (!claim) return;
        await idempotencyRecords.release(claim.scope, claim.key, claim.owner).catch(() => undefined);
      },
    },
  ];
}
