/**
 * The domain call (shared/http/chain/domainCall.ts): the chain's handler, given its Middy request by
 * `handOver`, runs the operation behind the write gate, or answers the replay without running it.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { writeGate } from '../../../shared/data/writeGate';
import { rateLimited } from '../../../shared/errors';
import { domainCall } from '../../../shared/http/chain/domainCall';
import type { ChainResponse } from '../../../shared/http/chain/outcome';
import type { ChainInternal, HttpEvent } from '../../../shared/http/chain/state';
import type { PublicRequest } from '../../../shared/http/request';
import { chainRequest, chainState, httpEvent, principal } from '../../support/chain';

const result = (value: unknown) => ({ kind: 'result' as const, value });

describe('domainCall', () => {
  it("gives the operation the validated request and the caller, from the Middy request's state", async () => {
    const seen: PublicRequest[] = [];
    const { handOver, handler } = domainCall(async (req) => {
      seen.push(req);
      return result('ok');
    });
    const request = chainRequest(
      {
        httpMethod: 'POST',
        path: '/api/v1/coursings',
        body: { title: 'Mains' },
        queryStringParameters: { page: 1 },
        pathParameters: {},
        headers: { 'x-a': '1' },
      },
      { principal: principal(), verdict: Promise.resolve() },
    );
    handOver.before!(request);
    await expect(handler(request.event)).resolves.toEqual(result('ok'));
    expect(seen).toEqual([
      {
        principal: principal(),
        body: { title: 'Mains' },
        query: { page: 1 },
        path: {},
        headers: { 'x-a': '1' },
        requestId: 'req-1',
        sourceIp: '203.0.113.9',
        method: 'POST',
        rawPath: '/api/v1/coursings',
      },
    ]);
  });

  it("runs the operation behind the write gate: its writes wait for the rate window's verdict", async () => {
    const refusal = rateLimited(60);
    const verdict = Promise.reject(refusal);
    verdict.catch(() => undefined);
    const writes = vi.fn();
    const { handOver, handler } = domainCall(async () => {
      const read = 'read beside the count';
      await writeGate(); // what every write path of the data layer does first
      writes();
      return result(read);
    });
    const request = chainRequest({}, { verdict });
    handOver.before!(request);
    await expect(handler(request.event)).rejects.toBe(refusal);
    expect(writes).not.toHaveBeenCalled();
  });

  it('answers a replay without running the operation', async () => {
    const operation = vi.fn(async () => result('again'));
    const { handOver, handler } = domainCall(operation);
    const answer = { statusCode: 200, body: '{}' };
    const request = chainRequest({}, { replay: answer, verdict: Promise.resolve() });
    handOver.before!(request);
    await expect(handler(request.event)).resolves.toEqual({ kind: 'replay', answer });
    expect(operation).not.toHaveBeenCalled();
  });

  it('refuses to run without its request handed over', () => {
    const { handler } = domainCall(async () => result(1));
    expect(() => handler(httpEvent())).toThrow('handOver');
  });

  it('hands each of many concurrent invocations of one function its own request', async () => {
    const { handOver, handler } = domainCall(async (req) => result(req.requestId));
    const lambda = middy<HttpEvent, ChainResponse, Error, Context, ChainInternal>()
      .use({
        // An earlier step that takes its time, differently for each request (the rate window, a key lookup):
        // the invocations' steps interleave, tick by tick.
        before: async (request) => {
          const n = Number(request.event.requestContext.requestId.slice(4));
          for (let tick = 0; tick < n % 4; tick++) await Promise.resolve();
          if (n % 5 === 0) await new Promise((r) => setTimeout(r, 1));
          request.internal.brigade = chainState({
            requestId: request.event.requestContext.requestId,
            verdict: Promise.resolve(),
          });
        },
      })
      .use(handOver)
      .handler(handler);
    const ids = Array.from({ length: 40 }, (_, i) => `req-${i}`);
    const answers = await Promise.all(
      ids.map((requestId) =>
        lambda(
          httpEvent({
            requestContext: { requestId, identity: { sourceIp: '203.0.113.9' } } as HttpEvent['requestContext'],
          }),
          {} as Context,
        ),
      ),
    );
    expect(answers).toEqual(ids.map((id) => result(id)));
  });
});
