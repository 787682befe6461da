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

  it('a probe still verifies a credential that is sent: a bad key answers 401, as the document describes', async () => {
    // call() checks the answer against the OpenAPI document: a 401 it did not describe would throw.
    for (const path of ['/live', '/ready', '/health']) {
      const out = await call('GET', path, { key: 'brigade_dev_aaaaaaaaaaaa_not-a-secret' });
      expect(out.status, path).toBe(401);
      expect(out.body.error.code, path).toBe('UNAUTHENTICATED');
    }
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
