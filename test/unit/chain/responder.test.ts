/** The responder (shared/http/chain/responder.ts): opens the state, renders every outcome, answers every error. */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../../shared/config';
import { Download } from '../../../shared/download';
import { AppError, rateLimited } from '../../../shared/errors';
import { responder } from '../../../shared/http/chain/responder';
import { isOutcome, type Outcome } from '../../../shared/http/chain/outcome';
import type { ChainRequest } from '../../../shared/http/chain/state';
import { Page } from '../../../shared/page';
import { chainRequest } from '../../support/chain';

process.env.STAGE = 'local';
process.env.TABLE_NAME = 'unit';
resetConfig();

const withCredential = responder({ permission: 'coursings.read' });
const isPublic = responder({ permission: null });
const rate = { 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '993', 'X-RateLimit-Reset': '1800000000' };

/** The answer the responder left as the response. */
function answerOf(request: ChainRequest): APIGatewayProxyResult {
  const response = request.response;
  if (!response || isOutcome(response)) throw new Error('the responder rendered no answer');
  return response;
}

/** What `after` makes of an outcome, with the state the steps before it left. */
async function rendered(outcome: Outcome, step = withCredential) {
  const request = chainRequest({}, { rateHeaders: rate });
  request.response = outcome;
  await step.after!(request);
  return answerOf(request);
}

afterEach(() => {
  delete process.env.CORS_ORIGINS;
  resetConfig();
});

describe('before', () => {
  it("opens the state: API Gateway's request id and source address, the route's CORS headers", async () => {
    const request = chainRequest({ headers: { Origin: 'https://guest.example', 'X-Forwarded-For': '198.51.100.1' } });
    await isPublic.before!(request);
    expect(request.internal.brigade).toEqual({
      requestId: 'req-1',
      sourceIp: '203.0.113.9',
      rateHeaders: {},
      corsHeaders: expect.objectContaining({ 'Access-Control-Allow-Origin': '*' }),
    });
  });

  it('echoes a listed origin to an operation with a credential, and names a request API Gateway did not', async () => {
    process.env.CORS_ORIGINS = 'https://app.example';
    resetConfig();
    const request = chainRequest({ headers: { origin: 'https://app.example' }, requestContext: undefined as never });
    await withCredential.before!(request);
    expect(request.internal.brigade?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.internal.brigade?.sourceIp).toBe('unknown');
    expect(request.internal.brigade?.corsHeaders).toMatchObject({
      'Access-Control-Allow-Origin': 'https://app.example',
      Vary: 'Origin',
    });
  });
});

describe('after: the outcome as the answer', () => {
  it('puts a result in the envelope, with the request id and the rate headers', async () => {
    const out = await rendered({ kind: 'result', value: { id: 7 } });
    expect(out.statusCode).toBe(200);
    expect(JSON.parse(out.body)).toEqual({ status: 'success', data: { id: 7 }, meta: { requestId: 'req-1' } });
    expect(out.headers).toEqual({ 'Content-Type': 'application/json', 'X-Request-Id': 'req-1', ...rate });
  });

  it("gives a page's pagination in meta", async () => {
    const page = new Page([{ id: 1 }], { page: 1, limit: 20, total: 1, totalPages: 1, nextCursor: null });
    const out = await rendered({ kind: 'result', value: page });
    expect(JSON.parse(out.body).meta).toEqual({
      requestId: 'req-1',
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1, nextCursor: null },
    });
  });

  it("sends a file's bytes with its type and name, not the envelope", async () => {
    const file = new Download('text/csv; charset=utf-8', 'export "may".csv', Buffer.from('a;b\n'));
    const out = await rendered({ kind: 'download', file });
    expect(out).toMatchObject({ statusCode: 200, isBase64Encoded: true });
    expect(Buffer.from(out.body, 'base64').toString()).toBe('a;b\n');
    expect(out.headers).toMatchObject({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="export _may_.csv"',
      'X-Request-Id': 'req-1',
    });
  });

  it("answers a probe's own status and body", async () => {
    const out = await rendered({ kind: 'probe', statusCode: 503, body: { status: 'unhealthy' } }, isPublic);
    expect(out.statusCode).toBe(503);
    expect(JSON.parse(out.body)).toEqual({ status: 'unhealthy' });
    expect(out.headers).toMatchObject({ 'X-Request-Id': 'req-1', ...rate });
  });

  it("sends a document as it is, its own headers over the chain's", async () => {
    const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'self'" };
    const out = await rendered({ kind: 'document', body: '<!doctype html>', headers }, isPublic);
    expect(out.body).toBe('<!doctype html>');
    expect(out.headers).toMatchObject({ ...headers, 'X-Request-Id': 'req-1' });
  });

  it("replays a kept answer as it was, with this request's headers and Idempotent-Replayed", async () => {
    const answer = { statusCode: 200, body: '{"status":"success","data":{"id":7},"meta":{"requestId":"first"}}' };
    const out = await rendered({ kind: 'replay', answer });
    expect(out.body).toBe(answer.body);
    expect(out.headers).toMatchObject({ 'Idempotent-Replayed': 'true', 'X-Request-Id': 'req-1', ...rate });
  });

  it('refuses to pass on a response that is no outcome', async () => {
    const request = chainRequest({}, {});
    request.response = { statusCode: 200, body: 'raw' };
    expect(() => withCredential.after!(request)).toThrow('no outcome');
  });
});

describe('onError: the error envelope', () => {
  it("answers the contract's error with its status, its headers and the request's", async () => {
    const request = chainRequest({}, { rateHeaders: rate });
    request.error = rateLimited(42);
    await withCredential.onError!(request);
    expect(request.response).toMatchObject({
      statusCode: 429,
      headers: { 'Retry-After': '42', 'X-Request-Id': 'req-1', ...rate },
    });
    expect(JSON.parse(answerOf(request).body)).toEqual({
      status: 'error',
      error: { code: 'RATE_LIMITED', message: expect.any(String), details: [] },
      meta: { requestId: 'req-1' },
    });
  });

  it('hides an unknown error behind a 500 that quotes the request id', async () => {
    const request = chainRequest({}, {});
    request.error = new Error('secret internal detail');
    await withCredential.onError!(request);
    const { body } = answerOf(request);
    expect(request.response).toMatchObject({ statusCode: 500 });
    expect(body).not.toContain('secret');
    expect(JSON.parse(body).meta.requestId).toBe('req-1');
  });

  it('answers in the envelope even when the state was never opened', async () => {
    const request = chainRequest();
    request.error = new AppError('NOT_FOUND', 'nothing here');
    await withCredential.onError!(request);
    expect(request.response).toMatchObject({ statusCode: 404, headers: { 'Content-Type': 'application/json' } });
  });
});
