/**
 * GET /openapi.json: public, a valid OpenAPI 3.1 document, and exactly the one the generator builds
 * from the route table (so a served copy that lags the table fails here), with the rate-limit
 * headers of every answer.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { API_VERSION } from '../../shared/config';
import { openApiDocument } from '../../shared/openapi/document';
import { call, devKeys } from '../support/http';

describe('the OpenAPI document', () => {
  it('is served without a credential, equal to what the generator builds from the route table', async () => {
    const out = await call('GET', '/openapi.json');
    expect(out.status).toBe(200);
    expect(out.headers.get('content-type')).toMatch(/^application\/json/);
    expect(out.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(out.body).toEqual(openApiDocument());
    const validator = new Validator();
    expect(await validator.validate(out.body)).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
  });

  it('is served to a caller with a key too, and a bad key is refused as anywhere', async () => {
    const withKey = await call('GET', '/openapi.json', { key: devKeys().companies[0]!.keys.readonly });
    expect(withKey.status).toBe(200);
    expect(withKey.body.info.version).toBe(API_VERSION);
    const bad = await call('GET', '/openapi.json', { key: 'brigade_dev_aaaaaaaaaaaa_not-a-secret' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('UNAUTHENTICATED');
  });
});
