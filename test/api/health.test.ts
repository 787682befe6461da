import { describe, expect, it } from 'vitest';
import { call } from '../support/http';

describe('health probes', () => {
  it('/live answers alive with uptime, no credential needed', async () => {
    const out = await call('GET', '/live');
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ status: 'alive', timestamp: expect.any(String), uptime: expect.any(Number) });
  });

  it('/ready reports the database with its response time', async () => {
    const out = await call('GET', '/ready');
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({
      status: 'healthy',
      uptime: expect.any(Number),
      dependencies: { database: { status: 'healthy', responseTimeMs: expect.any(Number), error: null } },
    });
  });

  it('/health reports database and cache', async () => {
    const out = await call('GET', '/health');
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({
      status: 'healthy',
      data: { database: { status: 'healthy' }, cache: { status: 'healthy' } },
      timestamp: expect.any(String),
    });
  });
});
