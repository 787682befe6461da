/**
 * The rate window (shared/http/chain/rateWindow.ts): `before` starts the count and does not wait for
 * it; `after` and `onError` wait, and a refusal replaces whatever the request would have answered.
 */
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { type Hit, rateWindows } from '../../../shared/data/rateWindows';
import { CODE_MISSES_PER_HOUR, GUEST_WRITES_PER_HOUR, isCodeMiss, windowAt } from '../../../shared/domain/rateWindow';
import { AppError, conflict, notFound, unauthenticated, validationFailed } from '../../../shared/errors';
import { rateLeases } from '../../../shared/domain/rateLeases';
import { rateWindow } from '../../../shared/http/chain/rateWindow';
import { chainRequest, principal } from '../../support/chain';

/** The last millisecond of an hour: `Retry-After` is its minimum, 1. */
const AT = Date.parse('2027-06-01T09:59:59.999Z');
const operation = rateWindow({ method: 'GET', probe: undefined }, () => AT);
const probe = rateWindow({ method: 'GET', probe: true }, () => AT);
const byCode = rateWindow({ method: 'POST', byCode: true }, () => AT);
const guestWrite = rateWindow({ method: 'POST', guest: true }, () => AT);
const reset = String(windowAt(AT).end);

function held() {
  let answer!: (hit: Hit) => void;
  let fail!: (err: unknown) => void;
  const hit = new Promise<Hit>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  });
  return { hit, answer, fail };
}

let hit: MockInstance<typeof rateWindows.hit>;
let release: MockInstance<typeof rateWindows.release>;
beforeEach(() => {
  hit = vi.spyOn(rateWindows, 'hit').mockResolvedValue({ allowed: true, used: 7 });
  release = vi.spyOn(rateWindows, 'release').mockResolvedValue(undefined);
  // The count's blocks are shared/domain/rateLeases.ts's (test/unit/rateLeases.test.ts): here one answer per request.
  vi.spyOn(rateLeases, 'take').mockImplementation((subject, window, limit) => rateWindows.hit(subject, window, limit));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('before', () => {
  it('sends the count and goes on without waiting for it', async () => {
    const count = held();
    hit.mockReturnValue(count.hit);
    const request = chainRequest({}, { principal: principal() });
    await operation.before!(request);
    const s = request.internal.brigade!;
    let settled = false;
    void s.verdict!.then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    count.answer({ allowed: true, used: 7 });
    await s.verdict;
    expect(s.rateHeaders).toEqual({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '993',
      'X-RateLimit-Reset': reset,
    });
  });

  it("counts a principal in its own window at its tier, an anonymous caller in its network's", async () => {
    await operation.before!(chainRequest({}, { principal: principal({ tier: 'premium', rateSubject: 'key:p' }) }));
    expect(hit).toHaveBeenLastCalledWith('key:p', windowAt(AT), 10_000);
    await operation.before!(chainRequest({}, { sourceIp: '2001:db8:aa:1:1111:2222:3333:4444' }));
    expect(hit).toHaveBeenLastCalledWith('ip:2001:db8:aa:1::/64', windowAt(AT), 1000);
  });

  it("counts a publishable key in its client's network window at the standard tier, not the key's (docs/online-booking.md)", async () => {
    const widget = principal({ rateSubject: 'key:w', allowedOrigins: ['https://bistro.example'] });
    await operation.before!(chainRequest({}, { principal: widget, sourceIp: '198.51.100.7' }));
    expect(hit).toHaveBeenLastCalledWith('ip:198.51.100.7', windowAt(AT), 1000);
  });

  it("counts a publishable key's online booking in its client's budget of guest writes too, and refuses past it", async () => {
    const widget = principal({ rateSubject: 'key:w', allowedOrigins: ['https://bistro.example'] });
    const request = chainRequest({}, { principal: widget, sourceIp: '198.51.100.7' });
    await guestWrite.before!(request);
    await request.internal.brigade!.verdict;
    expect(hit).toHaveBeenCalledWith('ip:198.51.100.7', windowAt(AT), 1000);
    expect(hit).toHaveBeenCalledWith('guestwrite:198.51.100.7', windowAt(AT), GUEST_WRITES_PER_HOUR);
    hit.mockImplementation(async (subject) => ({ allowed: !subject.startsWith('guestwrite:'), used: 21 }));
    const over = chainRequest({}, { principal: widget, sourceIp: '198.51.100.7' });
    await guestWrite.before!(over);
    await expect(over.internal.brigade!.verdict).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining(`${GUEST_WRITES_PER_HOUR} online bookings`),
    });
  });

  it("keeps a secret key's create on a guest route out of the guest-write budget", async () => {
    await guestWrite.before!(chainRequest({}, { principal: principal(), sourceIp: '198.51.100.7' }));
    expect(hit.mock.calls.map(([subject]) => subject)).toEqual(['key:abc']);
  });

  it('answers a held authentication failure only once the request is counted: 401, or 429 when refused', async () => {
    const failed = unauthenticated();
    const request = chainRequest({}, { authError: failed });
    await expect(operation.before!(request)).rejects.toBe(failed);
    expect(request.internal.brigade?.rateHeaders['X-RateLimit-Remaining']).toBe('993');
    hit.mockResolvedValue({ allowed: false, used: 1000 });
    await expect(operation.before!(chainRequest({}, { authError: failed }))).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
  });
});

describe('after and onError', () => {
  it('let an allowed answer out only once counted, with exact headers', async () => {
    const request = chainRequest({}, {});
    await operation.before!(request);
    request.response = { kind: 'result', value: 'kept' };
    await operation.after!(request);
    expect(request.response).toEqual({ kind: 'result', value: 'kept' });
    expect(request.internal.brigade?.rateHeaders['X-RateLimit-Remaining']).toBe('993');
  });

  it("replace a result with the 429 when the window refuses: Middy's onError answers it instead", async () => {
    hit.mockResolvedValue({ allowed: false, used: 1000 });
    const request = chainRequest({}, {});
    await operation.before!(request);
    request.response = { kind: 'result', value: 'what was read' };
    const refusal = await operation.after!(request).catch((err: unknown) => err);
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', status: 429, headers: { 'Retry-After': '1' } });
    expect(request.internal.brigade?.rateHeaders).toMatchObject({
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': reset,
    });
  });

  it('replace an error with the refusal (a 404 becomes 429), and with a 503 when the count failed', async () => {
    hit.mockResolvedValue({ allowed: false, used: 1000 });
    const refused = chainRequest({}, {});
    await operation.before!(refused);
    refused.error = notFound('Location');
    await operation.onError!(refused);
    expect(refused.error).toMatchObject({ code: 'RATE_LIMITED' });

    hit.mockRejectedValue(new AppError('UNAVAILABLE', 'down'));
    const uncounted = chainRequest({}, {});
    await operation.before!(uncounted);
    uncounted.error = notFound('Location');
    await operation.onError!(uncounted);
    expect(uncounted.error).toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('leave the error alone when the window allows, and when the request failed before counting', async () => {
    const allowed = chainRequest({}, {});
    await operation.before!(allowed);
    const missing = notFound('Location');
    allowed.error = missing;
    await operation.onError!(allowed);
    expect(allowed.error).toBe(missing);
    const early = chainRequest({}, {});
    early.error = missing;
    await operation.onError!(early);
    expect(early.error).toBe(missing);
  });
});

describe('a health probe', () => {
  it('is never refused: a full window and a database that cannot count both let it answer', async () => {
    hit.mockResolvedValue({ allowed: false, used: 1000 });
    const full = chainRequest({}, {});
    await probe.before!(full);
    await expect(probe.after!(full)).resolves.toBeUndefined();
    expect(hit).toHaveBeenLastCalledWith('probe:203.0.113.9', windowAt(AT), 1000);

    hit.mockRejectedValue(new AppError('UNAVAILABLE', 'down'));
    const down = chainRequest({}, {});
    await probe.before!(down);
    await expect(probe.after!(down)).resolves.toBeUndefined();
    expect(down.internal.brigade?.rateHeaders['X-RateLimit-Limit']).toBe('1000');
  });
});

describe('a by-code operation', () => {
  const budget = 'codemiss:203.0.113.9';
  /** The window answers `counted` for the IP's count and `lookup` for the failed-lookup budget. */
  const windows = (counted: Hit, lookup: Hit) =>
    hit.mockImplementation(async (subject) => (subject.startsWith('codemiss:') ? lookup : counted));

  it("counts an unlimited key in the client IP's window at the standard tier, and holds a place in its budget", async () => {
    const request = chainRequest({}, { principal: principal({ tier: 'unlimited', rateSubject: 'key:u' }) });
    await byCode.before!(request);
    await request.internal.brigade!.verdict;
    expect(hit).toHaveBeenCalledWith('ip:203.0.113.9', windowAt(AT), 1000);
    expect(hit).toHaveBeenCalledWith(budget, windowAt(AT), CODE_MISSES_PER_HOUR);
    expect(hit).not.toHaveBeenCalledWith('key:u', expect.anything(), expect.anything());
    expect(request.internal.brigade?.rateHeaders['X-RateLimit-Limit']).toBe('1000');
  });

  it('gives the place back when the code was found, keeps it when the lookup failed', async () => {
    const found = chainRequest({}, {});
    await byCode.before!(found);
    found.response = { kind: 'result', value: [] };
    await byCode.after!(found);
    expect(release).toHaveBeenCalledWith(budget, windowAt(AT));

    release.mockClear();
    for (const miss of [notFound('Booking'), validationFailed('bad', [{ path: '/code', message: 'x' }])]) {
      const missed = chainRequest({}, {});
      await byCode.before!(missed);
      missed.error = miss;
      await byCode.onError!(missed);
      expect(missed.error).toBe(miss);
    }
    expect(release).not.toHaveBeenCalled();

    const closed = chainRequest({}, {});
    await byCode.before!(closed);
    closed.error = conflict('The booking is cancelled');
    await byCode.onError!(closed);
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('refuses with its own 429 when the budget is used up, whatever the operation would have answered', async () => {
    windows({ allowed: true, used: 3 }, { allowed: false, used: CODE_MISSES_PER_HOUR });
    const request = chainRequest({}, {});
    await byCode.before!(request);
    request.response = { kind: 'result', value: 'a found booking' };
    const refusal = await byCode.after!(request).catch((err: unknown) => err);
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', headers: { 'Retry-After': '1' } });
    expect((refusal as AppError).message).toMatch(/lookups of unknown codes/);
    expect(release).not.toHaveBeenCalled();
  });

  it("gives the place back when the IP's window refuses: that answer tells nothing of the code", async () => {
    windows({ allowed: false, used: 1000 }, { allowed: true, used: 1 });
    const request = chainRequest({}, {});
    await byCode.before!(request);
    request.error = notFound('Booking');
    await byCode.onError!(request);
    expect(request.error).toMatchObject({ code: 'RATE_LIMITED', message: 'Hourly request limit reached' });
    expect(release).toHaveBeenCalledWith(budget, windowAt(AT));
  });
});

describe('isCodeMiss', () => {
  it('is a 404, or a 400 naming the code; nothing else', () => {
    expect(isCodeMiss(notFound('Waitlist entry'))).toBe(true);
    expect(isCodeMiss(validationFailed('x', [{ path: '/confirmationCode', message: 'y' }]))).toBe(true);
    expect(isCodeMiss(validationFailed('x', [{ path: '/guestEmail', message: 'y' }]))).toBe(false);
    expect(isCodeMiss(conflict('closed'))).toBe(false);
    expect(isCodeMiss(undefined)).toBe(false);
    expect(isCodeMiss(new Error('boom'))).toBe(false);
  });
});
