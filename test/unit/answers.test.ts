/**
 * The answer check the API suite runs on every answer (test/support/answers.ts) refuses what the
 * OpenAPI description does not say: so a passing suite means the answers matched, not that nothing
 * was looked at.
 */
import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../support/answers';

const headers = {
  'content-type': 'application/json; charset=utf-8',
  'x-ratelimit-limit': '1000',
  'x-ratelimit-remaining': '999',
  'x-ratelimit-reset': '1767225600',
  'x-request-id': 'r-1',
};
const meta = { requestId: 'r-1' };
const pagination = { page: 1, limit: 20, total: 1, totalPages: 1, nextCursor: null };
const at = '2026-01-01T12:00:00.000Z';
const table = {
  id: '3f1c2b7e-8a4d-4c1e-9b2a-6d5e4f3a2b1c',
  locationId: 101,
  name: 'T1',
  minCapacity: 2,
  maxCapacity: 4,
  combinableWith: [],
  createdAt: at,
  updatedAt: at,
  version: 1,
};
const tableUrl = `http://stage/api/v1/locations/101/tables/${table.id}`;
const error = (code: string) => ({
  status: 'error',
  error: { code, message: 'm', details: [{ path: '/x', message: 'm' }] },
  meta,
});
const problems = (...args: Parameters<typeof checkAnswer>) => checkAnswer(...args).problems;

describe('the answer check', () => {
  it('passes a success whose data matches the response schema, and says it was typed', () => {
    expect(checkAnswer('GET', tableUrl, 200, headers, { status: 'success', data: table, meta })).toEqual({
      operation: 'getTable',
      typed: true,
      problems: [],
    });
    expect(
      problems('GET', 'http://stage/api/v1/locations/101/tables?limit=5', 200, headers, {
        status: 'success',
        data: [table],
        meta: { ...meta, pagination },
      }),
    ).toEqual([]);
  });

  it('refuses data the schema does not describe: a field too many, one missing, a wrong type', () => {
    expect(
      problems('GET', tableUrl, 200, headers, { status: 'success', data: { ...table, secret: 'x' }, meta })[0],
    ).toMatch(/additional properties.*secret/);
    const { version: _v, ...withoutVersion } = table;
    expect(problems('GET', tableUrl, 200, headers, { status: 'success', data: withoutVersion, meta })[0]).toMatch(
      /required property 'version'/,
    );
    expect(
      problems('GET', tableUrl, 200, headers, { status: 'success', data: { ...table, maxCapacity: '4' }, meta })[0],
    ).toMatch(/maxCapacity must be integer/);
  });

  it('wants meta.pagination on a paged list and nowhere else', () => {
    expect(
      problems('GET', 'http://stage/api/v1/locations/101/tables', 200, headers, {
        status: 'success',
        data: [table],
        meta,
      })[0],
    ).toMatch(/required property 'pagination'/);
    expect(
      problems('GET', tableUrl, 200, headers, { status: 'success', data: table, meta: { ...meta, pagination } })[0],
    ).toMatch(/additional properties/);
  });

  it('passes an error envelope whose code is its status, and refuses another code or shape', () => {
    expect(problems('GET', tableUrl, 404, headers, error('NOT_FOUND'))).toEqual([]);
    expect(problems('GET', tableUrl, 404, headers, error('CONFLICT'))[0]).toMatch(/code must be equal to constant/);
    expect(problems('GET', tableUrl, 404, headers, { message: 'Not Found' })[0]).toMatch(/does not match/);
  });

  it('refuses a status the operation does not describe', () => {
    expect(problems('GET', tableUrl, 409, headers, error('CONFLICT'))).toEqual([
      'status 409 is not one the description gives GET /api/v1/locations/{locationId}/tables/{id}',
    ]);
    expect(problems('GET', 'http://stage/live', 404, headers, error('NOT_FOUND'))).toHaveLength(1);
  });

  it('checks the fallback against the error envelope of its status', () => {
    expect(checkAnswer('GET', 'http://stage/api/v1/nothing-here', 404, headers, error('NOT_FOUND'))).toEqual({
      operation: 'fallback',
      typed: false,
      problems: [],
    });
    expect(problems('DELETE', 'http://stage/api/v1/coursings', 405, headers, error('METHOD_NOT_ALLOWED'))).toEqual([]);
    expect(problems('DELETE', 'http://stage/api/v1/coursings', 405, headers, error('NOT_FOUND'))).toHaveLength(1);
  });

  it('wants JSON with the rate-limit and request-id headers on every answer', () => {
    const { 'x-ratelimit-remaining': _r, ...without } = headers;
    expect(problems('GET', tableUrl, 200, without, { status: 'success', data: table, meta })).toEqual([
      'the x-ratelimit-remaining header is missing',
    ]);
    expect(
      problems(
        'GET',
        tableUrl,
        200,
        { ...headers, 'content-type': 'text/plain' },
        { status: 'success', data: table, meta },
      ),
    ).toEqual(['Content-Type is text/plain, not application/json']);
  });

  it('checks the docs page and its script against their media types; their errors are the envelope', () => {
    const html = { ...headers, 'content-type': 'text/html; charset=utf-8' };
    expect(checkAnswer('GET', 'http://stage/docs', 200, html, '<!doctype html>')).toEqual({
      operation: 'getDocsPage',
      typed: false,
      problems: [],
    });
    expect(
      problems(
        'GET',
        'http://stage/docs/scalar.js',
        200,
        { ...headers, 'content-type': 'text/javascript; charset=utf-8' },
        '(function(){})()',
      ),
    ).toEqual([]);
    expect(problems('GET', 'http://stage/docs/scalar.js', 200, html, '<!doctype html>')).toEqual([
      'Content-Type is text/html; charset=utf-8, not text/javascript',
    ]);
    expect(problems('GET', 'http://stage/docs', 200, html, { status: 'success', data: {}, meta })).toHaveLength(1);
    expect(problems('GET', 'http://stage/docs', 401, headers, error('UNAUTHENTICATED'))).toEqual([]);
  });

  it('checks a probe and the document against their own shapes', () => {
    expect(problems('GET', 'http://stage/live', 200, headers, { status: 'alive', timestamp: at, uptime: 3 })).toEqual(
      [],
    );
    expect(
      problems('GET', 'http://stage/ready', 503, headers, {
        status: 'unhealthy',
        timestamp: at,
        uptime: 3,
        dependencies: { database: { status: 'unhealthy', responseTimeMs: 2000, error: 'x' } },
      }),
    ).toEqual([]);
    expect(problems('GET', 'http://stage/live', 200, headers, { status: 'success', data: {}, meta })).not.toEqual([]);
    expect(
      problems('GET', 'http://stage/openapi.json', 200, headers, {
        openapi: '3.0.3',
        info: { title: 't', version: 'v' },
        paths: {},
      })[0],
    ).toMatch(/openapi must match pattern/);
  });
});
