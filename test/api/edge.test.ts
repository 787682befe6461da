/**
 * The local stage's edge (bin/local/server.ts) turns any request into the event API Gateway would
 * send: query parameters and headers of any name, repeated ones by their last value.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { admin, useOwnCompany } from './setup-helpers';

useOwnCompany('Edge company');

describe('the local stage edge', () => {
  it('takes query parameters and headers named like Object.prototype members (the fuzz found a 502)', async () => {
    for (const query of ['constructor=1', '__proto__=x', 'hasOwnProperty=1&toString=2', 'constructor=1&constructor=2']) {
      const out = await call('GET', `/api/v1/locations?${query}&limit=3`, { key: admin(), headers: Object.fromEntries([['constructor', 'x'], ['__proto__', 'y']]) });
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
});
