import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { authenticate } from '../../shared/auth/authenticate';
import type { Principal } from '../../shared/auth/principal';
import { unauthenticated, unavailable } from '../../shared/errors';

vi.mock('../../shared/auth/authenticate', () => ({ authenticate: vi.fn() }));

const usageKeys = {
  standard: 'standardkey0000000000',
  premium: 'premiumkey00000000000',
  unlimited: 'unlimitedkey000000000',
  anonymous: 'anonymouskey000000000',
};
process.env.USAGE_KEYS = JSON.stringify(usageKeys);
const { handler } = await import('../../functions/authorizer');

const methodArn = 'arn:aws:execute-api:eu-north-1:123456789012:abc123/dev/POST/api/v1/coursings';
const wholeStage = 'arn:aws:execute-api:eu-north-1:123456789012:abc123/dev/*/*';

const event = (headers: Record<string, string>): APIGatewayRequestAuthorizerEvent =>
  ({ type: 'REQUEST', methodArn, headers }) as unknown as APIGatewayRequestAuthorizerEvent;

const principal: Principal = {
  kind: 'apiKey',
  companyId: 1,
  permissions: ['coursings.create'],
  tier: 'premium',
  locationIds: null,
  rateSubject: 'key:abcdefghij12',
  internalOperator: false,
  apiKeyId: '5a4d7a43-95f2-4d5e-9a57-5cf4e1b5f0e1',
};

const allowStatement = { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeStage };

describe('authorizer', () => {
  beforeEach(() => {
    vi.mocked(authenticate).mockReset();
  });

  it('verifies the credential from lower-cased headers, writing the verifier of a key bcrypt verified', async () => {
    vi.mocked(authenticate).mockResolvedValue(principal);
    await handler(event({ 'X-API-Key': 'brigade_dev_abcdefghij12_secret', Authorization: 'Bearer t' }));
    expect(authenticate).toHaveBeenCalledWith(
      { 'x-api-key': 'brigade_dev_abcdefghij12_secret', authorization: 'Bearer t' },
      expect.any(Number),
      { recordVerifier: true },
    );
  });

  it('allows the whole stage for a verified credential, with the principal and its tier key', async () => {
    vi.mocked(authenticate).mockResolvedValue(principal);
    const result = await handler(event({ 'x-api-key': 'k' }));
    expect(result).toEqual({
      principalId: 'key:abcdefghij12',
      policyDocument: { Version: '2012-10-17', Statement: [allowStatement] },
      context: { principal: JSON.stringify(principal) },
      usageIdentifierKey: usageKeys.premium,
    });
  });

  it('meters a key by its own usage key when it has one', async () => {
    vi.mocked(authenticate).mockResolvedValue({ ...principal, usageKey: 'ownkey000000000000000' });
    expect((await handler(event({ 'x-api-key': 'k' }))).usageIdentifierKey).toBe('ownkey000000000000000');
  });

  it('lets a caller whose credential does not verify through as anonymous, for the handler to answer 401', async () => {
    vi.mocked(authenticate).mockRejectedValue(unauthenticated());
    expect(await handler(event({ 'x-api-key': 'wrong' }))).toEqual({
      principalId: 'anonymous',
      policyDocument: { Version: '2012-10-17', Statement: [allowStatement] },
      context: { anonymous: 'true' },
      usageIdentifierKey: usageKeys.anonymous,
    });
  });

  it('fails the request when the credential cannot be checked (database unavailable)', async () => {
    vi.mocked(authenticate).mockRejectedValue(unavailable());
    await expect(handler(event({ 'x-api-key': 'k' }))).rejects.toThrow(Error);
  });

  it('fails the request on an unexpected error rather than calling the caller unauthenticated', async () => {
    vi.mocked(authenticate).mockRejectedValue(new TypeError('bug'));
    await expect(handler(event({ 'x-api-key': 'k' }))).rejects.toThrow('bug');
  });
});
