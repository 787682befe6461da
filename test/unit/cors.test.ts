/**
 * The CORS definitions the template, the functions and the local edge share (shared/http/cors.ts).
 */
import { describe, expect, it } from 'vitest';
import { answerHeaders, corsPaths, hasPreflight, parseCorsOrigins, preflight } from '../../shared/http/cors';

const paths = corsPaths([
  { path: '/api/v1/bookings', method: 'GET', permission: 'bookings.read' },
  { path: '/api/v1/bookings', method: 'POST', permission: 'bookings.create' },
  { path: '/api/v1/bookings/rsvp', method: 'POST', permission: null },
  { path: '/api/v1/mixed', method: 'GET', permission: null },
  { path: '/api/v1/mixed', method: 'DELETE', permission: 'mixed.manage' },
]);
const [keyed, publicOnly, mixed] = paths as [(typeof paths)[0], (typeof paths)[0], (typeof paths)[0]];
const ORIGINS = ['https://app.example'];

describe('preflight', () => {
  it('answers any origin for the public methods of a path', () => {
    expect(preflight(publicOnly, 'https://x.example', [])).toEqual({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'POST,OPTIONS',
      'Access-Control-Allow-Headers': 'Content-Type,Authorization,X-API-Key,Idempotency-Key,X-Location-Id',
      'Access-Control-Max-Age': '7200',
    });
    expect(hasPreflight(publicOnly, [])).toBe(true);
  });

  it('has none for an operation with a credential on a stage without origins', () => {
    expect(hasPreflight(keyed, [])).toBe(false);
    expect(preflight(keyed, 'https://app.example', [])).toEqual({});
  });

  it('echoes a listed origin with all the methods it may call, and refuses (no origin header) another', () => {
    expect(preflight(keyed, 'https://app.example', ORIGINS)).toMatchObject({
      'Access-Control-Allow-Origin': 'https://app.example',
      'Access-Control-Allow-Methods': 'GET,POST,OPTIONS',
      Vary: 'Origin',
    });
    expect(preflight(keyed, 'https://evil.example', ORIGINS)).toEqual({ Vary: 'Origin' });
    expect(preflight(mixed, 'https://evil.example', ORIGINS)).toMatchObject({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET,OPTIONS',
      Vary: 'Origin',
    });
    expect(preflight(mixed, 'https://app.example', ORIGINS)).toMatchObject({
      'Access-Control-Allow-Origin': 'https://app.example',
      'Access-Control-Allow-Methods': 'GET,DELETE,OPTIONS',
    });
  });
});

describe('answer headers', () => {
  it('are `*` on public operations, the echoed listed origin on the others, nothing without origins', () => {
    expect(answerHeaders(true, undefined, [])).toMatchObject({ 'Access-Control-Allow-Origin': '*' });
    expect(answerHeaders(false, 'https://app.example', [])).toEqual({});
    expect(answerHeaders(false, 'https://app.example', ORIGINS)).toMatchObject({
      'Access-Control-Allow-Origin': 'https://app.example',
      Vary: 'Origin',
    });
    expect(answerHeaders(false, 'https://evil.example', ORIGINS)).toEqual({ Vary: 'Origin' });
  });
});

describe('the origins setting', () => {
  it('takes comma-separated origins, trimmed, once each', () => {
    expect(parseCorsOrigins(' https://a.example , http://localhost:5173,https://a.example ')).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(parseCorsOrigins('')).toEqual([]);
  });

  it.each(['*', 'https://a.example/', 'a.example', 'https://a.example/path', 'ftp://a.example'])(
    'refuses %s',
    (origin) => {
      expect(() => parseCorsOrigins(origin)).toThrow(/not an origin/);
    },
  );
});
