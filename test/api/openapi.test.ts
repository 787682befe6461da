/**
 * GET /openapi.json: public, a valid OpenAPI 3.1 document, and exactly the one the generator builds
 * from the route table (so a served copy that lags the table fails here), with the rate-limit
 * headers of every answer. Fetched with the typed client (test/support/client.ts), whose types are
 * made from that same document.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { API_VERSION } from '../../shared/config';
import { openApiDocument } from '../../shared/openapi/document';
import { apiClient } from '../support/client';
import { devKeys } from '../support/http';

describe('the OpenAPI document', () => {
  it('is served without a credential, equal to what the generator builds from the route table', async () => {
    const out = await apiClient().GET('/openapi.json');
    expect(out.response.status).toBe(200);
    expect(out.response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(out.response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(out.data).toEqual(openApiDocument());
    const validator = new Validator();
    expect(await validator.validate(out.data as Parameters<Validator['validate']>[0])).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
  });

  it('is served to a caller with a key too, and a bad key is refused as anywhere', async () => {
    const withKey = await apiClient({ key: devKeys().companies[0]!.keys.readonly }).GET('/openapi.json');
    expect(withKey.response.status).toBe(200);
    expect(withKey.data?.info.version).toBe(API_VERSION);
    const bad = await apiClient({ key: 'brigade_dev_aaaaaaaaaaaa_not-a-secret' }).GET('/openapi.json');
    expect(bad.response.status).toBe(401);
    expect(bad.error?.error.code).toBe('UNAUTHENTICATED');
  });
});
