/** The credential step (shared/http/chain/credential.ts): the principal, or a failure held for the rate window. */
import { describe, expect, it, vi } from 'vitest';
import { AppError, unauthenticated } from '../../../shared/errors';
import { credential } from '../../../shared/http/chain/credential';
import { chainRequest, principal } from '../../support/chain';

const withPermission = { operationId: 'listCoursings', permission: 'coursings.read' };
const isPublic = { operationId: 'cancelBookingByCode', permission: null };
const authorizedBy = (context: Record<string, string>) =>
  ({ requestId: 'req-1', identity: { sourceIp: '203.0.113.9' }, authorizer: context }) as never;

describe('behind the authorizer', () => {
  it("takes the authorizer's principal and verifies nothing", async () => {
    const verify = vi.fn();
    const request = chainRequest({ requestContext: authorizedBy({ principal: JSON.stringify(principal()) }) }, {});
    await credential(withPermission, verify).before!(request);
    expect(request.internal.brigade?.principal).toEqual(principal());
    expect(verify).not.toHaveBeenCalled();
  });

  it('holds a 401 for a caller the authorizer found anonymous, without throwing', async () => {
    const request = chainRequest(
      { requestContext: authorizedBy({ anonymous: 'true' }), headers: { 'x-api-key': 'k' } },
      {},
    );
    await credential(withPermission).before!(request);
    expect(request.internal.brigade?.principal).toBeUndefined();
    expect(request.internal.brigade?.authError).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('holds a 401 when no verdict reached a function that relies on one', async () => {
    const request = chainRequest({ headers: { 'x-api-key': 'a-key' } }, {});
    await credential(withPermission).before!(request);
    expect(request.internal.brigade?.authError).toBeInstanceOf(AppError);
  });
});

describe('without the authorizer (public operations, probes, the fallback)', () => {
  it('lets a caller without a credential through as anonymous', async () => {
    const verify = vi.fn();
    const request = chainRequest({}, {});
    await credential(isPublic, verify).before!(request);
    expect(request.internal.brigade).not.toHaveProperty('principal');
    expect(request.internal.brigade).not.toHaveProperty('authError');
    expect(verify).not.toHaveBeenCalled();
  });

  it('verifies a credential the caller sends', async () => {
    const verify = vi.fn(async () => principal({ rateSubject: 'key:sent' }));
    const request = chainRequest({ headers: { authorization: 'Bearer t' } }, {});
    await credential(isPublic, verify).before!(request);
    expect(verify).toHaveBeenCalledWith({ authorization: 'Bearer t' });
    expect(request.internal.brigade?.principal?.rateSubject).toBe('key:sent');
  });

  it('holds the failure of a credential that does not verify', async () => {
    const refusal = unauthenticated('wrong key');
    const request = chainRequest({ headers: { 'x-api-key': 'wrong' } }, {});
    await credential(isPublic, async () => Promise.reject(refusal)).before!(request);
    expect(request.internal.brigade?.authError).toBe(refusal);
  });
});
