/**
 * The idempotency records against DynamoDB Local (shared/data/idempotency.ts): who may claim a key
 * and when, and that only the claim's owner completes or releases it.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { idempotencyRecords, RECORD_SECONDS, type IdempotencyScope } from '../../shared/data/idempotency';
import { idBlock } from '../support/id-blocks';

const ids = idBlock(import.meta.url);
const scope: IdempotencyScope = { companyId: ids.next(), subject: 'key:idemtest0001' };
const anonymous: IdempotencyScope = { companyId: null, subject: 'ip:192.0.2.1' };
const now = Date.now();
const claimAt = (key: string, nowMs: number, owner = randomUUID(), fingerprint = 'f1', s = scope) =>
  idempotencyRecords.claim(s, key, { fingerprint, owner, nowMs, leaseMs: 60_000 });

describe('idempotency records', () => {
  it('lets one claim hold a key, and answers the holder to the next', async () => {
    const key = randomUUID();
    expect(await claimAt(key, now)).toEqual({ claimed: true });
    expect(await claimAt(key, now + 1000, randomUUID(), 'f2')).toEqual({
      claimed: false,
      record: { status: 'running', fingerprint: 'f1', leaseUntil: now + 60_000, owner: expect.any(String) },
    });
  });

  it('replays a completed answer, completed only by the owner of the claim', async () => {
    const key = randomUUID();
    const owner = randomUUID();
    await claimAt(key, now, owner);
    await idempotencyRecords.complete(scope, key, randomUUID(), { statusCode: 200, body: 'not mine' });
    await idempotencyRecords.complete(scope, key, owner, { statusCode: 200, body: '{"status":"success"}' });
    expect(await claimAt(key, now + 1000)).toEqual({
      claimed: false,
      record: { status: 'done', fingerprint: 'f1', response: { statusCode: 200, body: '{"status":"success"}' } },
    });
    // A done record is never given up by a release.
    await idempotencyRecords.release(scope, key, owner);
    expect((await claimAt(key, now + 2000)).claimed).toBe(false);
  });

  it('takes a key over once its lease has ended, and the old owner can no longer complete it', async () => {
    const key = randomUUID();
    const old = randomUUID();
    await claimAt(key, now, old);
    expect((await claimAt(key, now + 59_000)).claimed).toBe(false);
    const taker = randomUUID();
    expect(await claimAt(key, now + 61_000, taker)).toEqual({ claimed: true });
    await idempotencyRecords.complete(scope, key, old, { statusCode: 200, body: 'late' });
    await idempotencyRecords.complete(scope, key, taker, { statusCode: 200, body: 'taker' });
    expect(await claimAt(key, now + 62_000)).toMatchObject({
      claimed: false,
      record: { status: 'done', response: { body: 'taker' } },
    });
  });

  it('frees a key released by its owner, not by another', async () => {
    const key = randomUUID();
    const owner = randomUUID();
    await claimAt(key, now, owner);
    await idempotencyRecords.release(scope, key, randomUUID());
    expect((await claimAt(key, now + 1)).claimed).toBe(false);
    await idempotencyRecords.release(scope, key, owner);
    expect((await claimAt(key, now + 2)).claimed).toBe(true);
  });

  it('forgets an answer after 24 hours, before DynamoDB deletes the record', async () => {
    const key = randomUUID();
    const owner = randomUUID();
    await claimAt(key, now, owner);
    await idempotencyRecords.complete(scope, key, owner, { statusCode: 200, body: 'yesterday' });
    expect((await claimAt(key, now + (RECORD_SECONDS - 1) * 1000)).claimed).toBe(false);
    expect((await claimAt(key, now + RECORD_SECONDS * 1000)).claimed).toBe(true);
  });

  it("keeps anonymous callers' keys apart from a company's", async () => {
    const key = randomUUID();
    expect((await claimAt(key, now)).claimed).toBe(true);
    expect((await claimAt(key, now, randomUUID(), 'f1', anonymous)).claimed).toBe(true);
  });
});
