/** The permission step (shared/http/chain/permission.ts). */
import { describe, expect, it } from 'vitest';
import { permission } from '../../../shared/http/chain/permission';
import { chainRequest, principal } from '../../support/chain';

describe('permission', () => {
  const create = permission({ permission: 'coursings.create' });

  it('answers 403 when the principal lacks the permission, or there is none', () => {
    const lacking = chainRequest({}, { principal: principal({ permissions: ['coursings.read'] }) });
    expect(() => create.before!(lacking)).toThrow(expect.objectContaining({ code: 'FORBIDDEN', status: 403 }));
    expect(() => create.before!(chainRequest({}, {}))).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });

  it('lets through a principal that holds it, an admin key holding every permission included', () => {
    expect(create.before!(chainRequest({}, { principal: principal() }))).toBeUndefined();
    const admin = principal({ permissions: [], allPermissions: true });
    expect(create.before!(chainRequest({}, { principal: admin }))).toBeUndefined();
  });

  it('asks nothing of a public operation', () => {
    expect(permission({ permission: null }).before!(chainRequest({}, {}))).toBeUndefined();
  });
});
