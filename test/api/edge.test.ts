/**
 * The local stage's edge (bin/local/server.ts) does what API Gateway does for the REST API: it
 * turns any request into the event API Gateway would send (query parameters and headers of any
 * name, repeated ones by their last value, the body base64-encoded), sends a file answer's bytes
 * whatever the Accept, keys per-IP windows by the connection's address, not a header, and answers
 * browsers' preflights as the template does (infra/cors.ts, shared/http/cors.ts).
 */
import { describe, expect, it } from 'vitest';
import { apiClient, dataOf } from '../support/client';
import { call, devKeys, inOneRateWindow, newClientAddress } from '../support/http';
import { monthAccounts, testMonth } from '../support/reporting-month';
import { readSie } from '../support/sie';
import { stagePurchaseDays } from '../support/stage-data';
import { admin, newLocation, useOwnCompany } from './setup-helpers';

const own = useOwnCompany('Edge company');

describe('the local stage edge', () => {
  it('takes query parameters and headers named like Object.prototype members (the fuzz found a 502)', async () => {
    for (const query of [
      'constructor=1',
      '__proto__=x',
      'hasOwnProperty=1&toString=2',
      'constructor=1&constructor=2',
    ]) {
      const out = await call('GET', `/api/v1/locations?${query}&limit=3`, {
        key: admin(),
        headers: Object.fromEntries([
          ['constructor', 'x'],
          ['__proto__', 'y'],
        ]),
      });
      expect(out.status, query).toBe(200);
      expect(out.body).toMatchObject({ status: 'success', data: [], meta: { pagination: { limit: 3 } } });
    }
  });

  it('reads a repeated query parameter by its last value, as API Gateway does', async () => {
    const out = await call('GET', '/api/v1/locations?limit=1&limit=7', { key: admin() });
    expect(out.status).toBe(200);
    expect(out.body.meta.pagination.limit).toBe(7);
    const refused = await call('GET', '/api/v1/locations?limit=7&limit=x', { key: admin() });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d: { path: string }) => d.path)).toEqual(['/limit']);
  });

  it('hands JSON bodies to the function base64-encoded, as API Gateway does, and they are read as JSON', async () => {
    expect((await newLocation('Café Ström')).name).toBe('Café Ström');
  });
});

describe('binary answers', () => {
  it("sends the accounting export's exact bytes whatever the client's Accept", async () => {
    const place = (await newLocation('Export bytes')).id;
    const m = testMonth(place);
    await stagePurchaseDays(own().companyId, m.purchases);
    dataOf(
      await apiClient({ key: admin() }).PUT('/api/v1/reporting/export-settings', {
        body: { locationId: place, exportType: 'sie', accounts: monthAccounts },
      }),
    );
    const url = `${devKeys().baseUrl}/api/v1/reporting/export?locationId=${place}&startDate=${m.before}&endDate=${m.after}`;
    const bytesFor = async (accept: string | undefined) => {
      const res = await fetch(url, {
        headers: { 'X-API-Key': admin(), ...(accept !== undefined && { Accept: accept }) },
      });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-disposition'), accept).toMatch(/^attachment; filename=/);
      return new Uint8Array(await res.arrayBuffer());
    };
    const reference = await bytesFor('text/plain');
    expect(readSie(reference).vouchers.length).toBeGreaterThan(0);
    for (const accept of ['application/json', '*/*', undefined, 'application/octet-stream']) {
      expect(Buffer.from(await bytesFor(accept)).equals(Buffer.from(reference)), String(accept)).toBe(true);
    }
  });
});

describe('the client address', () => {
  it('counts a public request against the connection address: X-Forwarded-For does not move it to another window', async () => {
    const { answers } = await inOneRateWindow(async () => {
      // A client address of its own (a fresh window each run): the counts are exact.
      const from = newClientAddress();
      const ask = (headers: Record<string, string>) =>
        call('GET', '/api/v1/bookings/by-code/ZZZZZZZZ/members', { headers, from });
      return {
        answers: [
          await ask({}),
          await ask({ 'X-Forwarded-For': '198.51.100.7', 'X-Real-Ip': '198.51.100.8' }),
          await ask({ 'X-Forwarded-For': '203.0.113.99' }),
        ],
      };
    });
    // A window of its own for the forwarded address would start again at the limit.
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['999', '998', '997']);
  });
});

describe('CORS', () => {
  const preflightOf = (path: string, method: string, origin = 'https://guest.example') =>
    fetch(`${devKeys().baseUrl}${path}`, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': 'content-type,idempotency-key',
      },
    });

  it('answers preflights of the public operations and the OpenAPI document for any origin, as the template does', async () => {
    for (const [path, method] of [
      ['/openapi.json', 'GET'],
      ['/api/v1/bookings/rsvp', 'POST'],
      ['/api/v1/bookings/by-code/ABCDEFGH/cancel', 'POST'],
    ] as const) {
      const res = await preflightOf(path, method);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('access-control-allow-methods')!.split(','), path).toContain(method);
      expect(res.headers.get('access-control-allow-headers')!.toLowerCase().split(','), path).toEqual(
        expect.arrayContaining(['content-type', 'idempotency-key']),
      );
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    }
  });

  it('lets a browser read public answers, errors included', async () => {
    const doc = await fetch(`${devKeys().baseUrl}/openapi.json`, { headers: { Origin: 'https://guest.example' } });
    expect(doc.headers.get('access-control-allow-origin')).toBe('*');
    const missing = await call('POST', '/api/v1/bookings/by-code/ZZZZZZZZ/cancel', {
      body: {},
      headers: { Origin: 'https://guest.example' },
      from: newClientAddress(), // a failed lookup: spent from a budget of its own, not 127.0.0.1's
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    expect(missing.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
  });

  it('gives operations with a credential no preflight on a stage without origins (the fallback answers 405, as on AWS)', async () => {
    const res = await preflightOf('/api/v1/bookings', 'POST');
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBe('*'); // the fallback is public: its 405 is readable
    const answer = await call('GET', '/api/v1/locations?limit=1', {
      key: admin(),
      headers: { Origin: 'https://app.example' },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});
