/**
 * The idempotency step (shared/http/chain/idempotency.ts): `before` claims the key or finds the
 * replay, `after` keeps the answer, `onError` gives the key up. The records are spied on; their
 * conditions are tested against DynamoDB Local (test/integration/idempotency.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { idempotencyRecords } from '../../../shared/data/idempotency';
import { writeGate } from '../../../shared/data/writeGate';
import { notFound, rateLimited } from '../../../shared/errors';
import { domainCall } from '../../../shared/http/chain/domainCall';
import { fingerprint, idempotency } from '../../../shared/http/chain/idempotency';
import type { ChainRequest, ChainState } from '../../../shared/http/chain/state';
import { chainRequest, principal } from '../../support/chain';

const [step] = idempotency({ method: 'POST' });
const KEY = '6e0d7c1a-1111-4b4b-9c9c-000000000001';
const body = { locationId: 101, title: 'Mains', order: 2 };

/** A POST as the steps before this one leave it: counted (`verdict`), its body parsed. */
function post(
  headers: Record<string, string> = { 'idempotency-key': KEY },
  state: Partial<ChainState> = {},
): ChainRequest {
  return chainRequest(
    { httpMethod: 'POST', headers, body, queryStringParameters: {} },
    { principal: principal(), verdict: Promise.resolve(), ...state },
  );
}

const spies = () => ({
  claim: vi.spyOn(idempotencyRecords, 'claim').mockImplementation(async () => {
    await writeGate(); // as the record's write does: it waits for the rate window's verdict
    return { claimed: true };
  }),
  complete: vi.spyOn(idempotencyRecords, 'complete').mockResolvedValue(undefined),
  release: vi.spyOn(idempotencyRecords, 'release').mockResolvedValue(undefined),
});
let records: ReturnType<typeof spies>;
beforeEach(() => {
  records = spies();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('which requests it takes', () => {
  it('is no step for an operation that is not a POST', () => {
    expect(idempotency({ method: 'GET' })).toEqual([]);
    expect(idempotency({ method: 'PUT' })).toEqual([]);
  });

  it('leaves a POST without a key alone', async () => {
    const request = post({});
    await step!.before!(request);
    expect(records.claim).not.toHaveBeenCalled();
    expect(request.internal.brigade).not.toHaveProperty('claim');
  });

  it('answers 400 to a malformed key, claiming nothing', async () => {
    for (const key of ['has spaces', 'x'.repeat(256), 'tab\there', 'ünïcode']) {
      await expect(step!.before!(post({ 'idempotency-key': key }))).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        status: 400,
        details: [{ path: '/headers/Idempotency-Key', message: expect.any(String) }],
      });
    }
    expect(records.claim).not.toHaveBeenCalled();
  });
});

describe('before: claim or replay', () => {
  it("claims the key in the caller's scope, for this request's fingerprint", async () => {
    const request = post();
    await step!.before!(request);
    expect(records.claim).toHaveBeenCalledWith({ companyId: 1, subject: 'key:abc' }, KEY, {
      fingerprint: fingerprint(request.event),
      owner: expect.any(String),
      nowMs: expect.any(Number),
      leaseMs: 60_000,
    });
    expect(request.internal.brigade?.claim).toMatchObject({ key: KEY, scope: { companyId: 1, subject: 'key:abc' } });
  });

  it("claims an anonymous caller's key in its client network's scope (the one its rate window counts)", async () => {
    await step!.before!(post(undefined, { principal: undefined, sourceIp: '192.0.2.1' }));
    await step!.before!(post(undefined, { principal: undefined, sourceIp: '198.51.100.7' }));
    await step!.before!(post(undefined, { principal: undefined, sourceIp: '2001:db8:0:1::17' }));
    await step!.before!(post(undefined, { principal: undefined, sourceIp: '2001:db8:0:1::99' }));
    expect(records.claim.mock.calls.map((c) => c[0])).toEqual([
      { companyId: null, subject: 'ip:192.0.2.1' },
      { companyId: null, subject: 'ip:198.51.100.7' },
      { companyId: null, subject: 'ip:2001:db8:0:1::/64' },
      { companyId: null, subject: 'ip:2001:db8:0:1::/64' },
    ]);
  });

  it('fingerprints the X-Location-Id header: the same key with another location is another request (422)', async () => {
    const at = (location: string) => post({ 'idempotency-key': KEY, 'x-location-id': location });
    expect(fingerprint(at('101').event)).not.toBe(fingerprint(at('102').event));
    expect(fingerprint(at('101').event)).not.toBe(fingerprint(post().event));
    expect(fingerprint(at('101').event)).toBe(fingerprint(at('101').event));
    records.claim.mockResolvedValue({
      claimed: false,
      record: { status: 'done', fingerprint: fingerprint(at('102').event), response: { statusCode: 200, body: '' } },
    });
    await expect(step!.before!(at('101'))).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      details: [{ path: '/headers/Idempotency-Key', message: expect.any(String) }],
    });
  });

  it('re-checks on a replay that the caller may still act at the location the request names (403 otherwise)', async () => {
    const answer = { statusCode: 200, body: '{"status":"success","data":{},"meta":{"requestId":"first"}}' };
    const limited = principal({ locationIds: [101] });
    const cases: [Record<string, string>, Partial<ChainState>][] = [
      [{ 'idempotency-key': KEY, 'x-location-id': '102' }, { principal: limited }],
      [{ 'idempotency-key': KEY }, { principal: principal({ locationIds: [102] }) }], // the body names 101
    ];
    for (const [headers, state] of cases) {
      const request = post(headers, state);
      records.claim.mockResolvedValue({
        claimed: false,
        record: { status: 'done', fingerprint: fingerprint(request.event), response: answer },
      });
      await expect(step!.before!(request)).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
      expect(request.internal.brigade).not.toHaveProperty('replay');
    }
    const allowed = post({ 'idempotency-key': KEY, 'x-location-id': '101' }, { principal: limited });
    records.claim.mockResolvedValue({
      claimed: false,
      record: { status: 'done', fingerprint: fingerprint(allowed.event), response: answer },
    });
    await step!.before!(allowed);
    expect(allowed.internal.brigade?.replay).toEqual(answer);
  });

  it('re-checks on a replay the locations the first answer acted at (a resource named by its path): 403 for a key limited since', async () => {
    const limited = principal({ locationIds: [101] });
    const answerAt = (data: unknown) => ({
      statusCode: 200,
      body: JSON.stringify({ status: 'success', data, meta: { requestId: 'first' } }),
    });
    const replayOf = async (answer: { statusCode: number; body: string }) => {
      const request = chainRequest(
        { httpMethod: 'POST', headers: { 'idempotency-key': KEY }, body: null, queryStringParameters: {} },
        { principal: limited, verdict: Promise.resolve() },
      );
      records.claim.mockResolvedValue({
        claimed: false,
        record: { status: 'done', fingerprint: fingerprint(request.event), response: answer },
      });
      await step!.before!(request);
      return request.internal.brigade?.replay;
    };
    for (const data of [
      { id: 'b1', locationId: 102 },
      { locationIds: [101, 102] },
      [{ locationId: 101 }, { locationId: 102 }],
    ]) {
      await expect(replayOf(answerAt(data))).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    }
    for (const data of [{ id: 'b1', locationId: 101 }, { locationIds: [101] }, null, 'text']) {
      const answer = answerAt(data);
      await expect(replayOf(answer)).resolves.toEqual(answer);
    }
    const unparsable = { statusCode: 200, body: 'not json' };
    await expect(replayOf(unparsable)).resolves.toEqual(unparsable);
  });

  it("waits for the rate window's verdict before claiming: a refused request leaves no record", async () => {
    const refused = Promise.reject(rateLimited(60));
    refused.catch(() => undefined);
    const request = post(undefined, { verdict: refused });
    await expect(step!.before!(request)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(request.internal.brigade).not.toHaveProperty('claim');
  });

  it('finds the first answer of a finished request and leaves it as the replay; a replay skips the operation', async () => {
    const answer = { statusCode: 200, body: '{"status":"success","data":{"id":1},"meta":{"requestId":"first"}}' };
    const request = post();
    records.claim.mockResolvedValue({
      claimed: false,
      record: { status: 'done', fingerprint: fingerprint(request.event), response: answer },
    });
    await step!.before!(request);
    expect(request.internal.brigade?.replay).toEqual(answer);
    expect(request.internal.brigade).not.toHaveProperty('claim');

    const operation = vi.fn(async () => ({ kind: 'result' as const, value: 'ran again' }));
    const { handOver, handler } = domainCall(operation);
    handOver.before!(request);
    await expect(handler(request.event)).resolves.toEqual({ kind: 'replay', answer });
    expect(operation).not.toHaveBeenCalled();
  });

  it('answers 422 to the same key with another request, 409 with Retry-After while the first runs', async () => {
    records.claim.mockResolvedValue({
      claimed: false,
      record: { status: 'done', fingerprint: 'another', response: { statusCode: 200, body: '' } },
    });
    await expect(step!.before!(post())).rejects.toMatchObject({ code: 'UNPROCESSABLE', status: 422 });
    const running = post();
    records.claim.mockResolvedValue({
      claimed: false,
      record: {
        status: 'running',
        fingerprint: fingerprint(running.event),
        leaseUntil: Date.now() + 60_000,
        owner: 'o',
      },
    });
    await expect(step!.before!(running)).rejects.toMatchObject({ code: 'CONFLICT', headers: { 'Retry-After': '1' } });
  });
});

describe('after and onError: keep the answer or give the key up', () => {
  it('keeps the envelope the operation answered, under the claim', async () => {
    const request = post();
    await step!.before!(request);
    request.response = { kind: 'result', value: { id: 7 } };
    await step!.after!(request);
    const { owner } = request.internal.brigade!.claim!;
    expect(records.complete).toHaveBeenCalledWith({ companyId: 1, subject: 'key:abc' }, KEY, owner, {
      statusCode: 200,
      body: JSON.stringify({ status: 'success', data: { id: 7 }, meta: { requestId: 'req-1' } }),
    });
  });

  it('still answers when keeping fails', async () => {
    records.complete.mockRejectedValue(new Error('throttled'));
    const request = post();
    await step!.before!(request);
    request.response = { kind: 'result', value: { id: 7 } };
    await expect(step!.after!(request)).resolves.toBeUndefined();
  });

  it('gives the key up when the operation failed, and keeps nothing of a request it did not claim', async () => {
    const request = post();
    await step!.before!(request);
    request.error = notFound('Location');
    await step!.onError!(request);
    expect(records.release).toHaveBeenCalledWith(
      { companyId: 1, subject: 'key:abc' },
      KEY,
      request.internal.brigade!.claim!.owner,
    );

    const unclaimed = post({});
    await step!.before!(unclaimed);
    unclaimed.response = { kind: 'result', value: 1 };
    await step!.after!(unclaimed);
    await step!.onError!(unclaimed);
    expect(records.complete).not.toHaveBeenCalled();
    expect(records.release).toHaveBeenCalledTimes(1);
  });
});
