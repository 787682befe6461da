/**
 * The no-show sweeper Lambda reads the sweep partitions of the last 24 hours (each hour's 16 shards
 * and its unsharded partition of before the shards), one Query each, and never scans; the shard of
 * an item is stable, in range and spread.
 */
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';
import { SWEEP_SHARDS, offerLapseSweep, sweepItemKey, sweepShard } from '../../shared/data/noShowSweep';

process.env.STAGE = 'local';
process.env.TABLE_NAME = 'unit';
resetConfig();
setDb(undefined);
const ddb = mockClient(DynamoDBDocumentClient);
afterAll(() => ddb.restore());

describe('functions/sweeper/no-shows', () => {
  it('queries every shard of each hour up to now, and the unsharded partition, with sk before now, and skips bookings that are no longer confirmed', async () => {
    const now = Date.parse('2026-12-04T18:30:00Z');
    const dueAt = '2026-12-04T18:20:00.000Z';
    const sharded = { ...sweepItemKey(7, 'b1', dueAt), companyId: 7, bookingId: 'b1', dueAt };
    expect(sharded.pk).toBe(`SWEEP#2026-12-04T18#${String(sweepShard(7, 'b1')).padStart(2, '0')}`);
    // Written before the shards, under the hour alone: read all the same.
    const unsharded = { pk: 'SWEEP#2026-12-04T18', sk: `${dueAt}#7#b2`, companyId: 7, bookingId: 'b2', dueAt };
    ddb.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => ({
      Items: [sharded, unsharded].filter((i) => i.pk === input.ExpressionAttributeValues[':pk']),
    }));
    ddb.on(GetCommand).resolves({ Item: { id: 'b1', status: 'seated' } });
    const { sweepNoShows } = await import('../../shared/domain/bookings/transitions');
    expect(await sweepNoShows(now)).toBe(0);

    const queries = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(queries).toHaveLength(25 * (SWEEP_SHARDS + 1));
    expect(queries[0]!.ExpressionAttributeValues).toEqual({
      ':pk': 'SWEEP#2026-12-03T18#00',
      ':sk': '2026-12-04T18:30:00.000Z#~',
    });
    const partitions = queries.map((q) => q.ExpressionAttributeValues![':pk'] as string);
    expect(new Set(partitions).size).toBe(partitions.length);
    expect(partitions.filter((p) => p.startsWith('SWEEP#2026-12-04T18'))).toEqual([
      ...Array.from({ length: SWEEP_SHARDS }, (_, s) => `SWEEP#2026-12-04T18#${String(s).padStart(2, '0')}`),
      'SWEEP#2026-12-04T18',
    ]);
    expect(ddb.commandCalls(GetCommand).map((c) => c.args[0].input.Key)).toEqual([
      { pk: 'C#7', sk: 'BOOKING#b1' },
      { pk: 'C#7', sk: 'BOOKING#b2' },
    ]);
    expect(ddb.commandCalls(ScanCommand)).toHaveLength(0);
  });

  it('leaves a booking alone whose own autoNoShowAt is later than the item it was found by (an unsharded item left behind by a move)', async () => {
    ddb.reset();
    const now = Date.parse('2026-12-04T18:30:00Z');
    const dueAt = '2026-12-04T18:20:00.000Z';
    const stale = { pk: 'SWEEP#2026-12-04T18', sk: `${dueAt}#7#b3`, companyId: 7, bookingId: 'b3', dueAt };
    ddb.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => ({
      Items: input.ExpressionAttributeValues[':pk'] === stale.pk ? [stale] : [],
    }));
    ddb.on(GetCommand).resolves({
      Item: { id: 'b3', status: 'confirmed', autoNoShowAt: '2026-12-05T19:15:00.000Z', version: 2 },
    });
    const { sweepNoShows } = await import('../../shared/domain/bookings/transitions');
    expect(await sweepNoShows(now)).toBe(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('reads the offer-lapse partitions the same way and expires a lapsed offer found there', async () => {
    ddb.reset();
    const now = Date.parse('2026-12-04T18:30:00Z');
    const dueAt = '2026-12-04T18:20:00.000Z';
    const due = { ...sweepItemKey(7, 'e1', dueAt, offerLapseSweep), companyId: 7, entryId: 'e1', dueAt };
    expect(due.pk).toBe(`SWEEP#WAITLIST#2026-12-04T18#${String(sweepShard(7, 'e1')).padStart(2, '0')}`);
    ddb.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => ({
      Items: input.ExpressionAttributeValues[':pk'] === due.pk ? [due] : [],
    }));
    // Accepted meanwhile: nothing to expire.
    ddb.on(GetCommand).resolves({ Item: { id: 'e1', status: 'accepted', offer: { expiresAt: due.dueAt } } });
    const { sweepLapsedOffers } = await import('../../shared/domain/waitlist/operations');
    expect(await sweepLapsedOffers(now)).toBe(0);
    const queries = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(queries).toHaveLength(25 * (SWEEP_SHARDS + 1));
    expect(queries[0]!.ExpressionAttributeValues).toEqual({
      ':pk': 'SWEEP#WAITLIST#2026-12-03T18#00',
      ':sk': '2026-12-04T18:30:00.000Z#~',
    });
    expect(queries.at(-1)!.ExpressionAttributeValues![':pk']).toBe('SWEEP#WAITLIST#2026-12-04T18');
    expect(ddb.commandCalls(GetCommand).map((c) => c.args[0].input.Key)).toEqual([{ pk: 'C#7', sk: 'WAITLIST#e1' }]);
    expect(ddb.commandCalls(ScanCommand)).toHaveLength(0);
  });

  it('answers how many it marked and expired', async () => {
    ddb.reset();
    ddb.on(QueryCommand).resolves({ Items: [] });
    const { handler } = await import('../../functions/sweeper/no-shows');
    expect(await handler({})).toEqual({ marked: 0, expired: 0 });
  });
});

describe('the shard of a sweep item', () => {
  it('is the same for the same company and id in every process and release (the values are pinned: a changed function would strand every item written before it)', () => {
    expect([sweepShard(7, 'b1'), sweepShard(7, 'e1'), sweepShard(7, 'b2')]).toEqual([12, 11, 2]);
    expect(sweepShard(42, '3f1c2b7e-8a4d-4c1e-9b2a-6d5e4f3a2b1c')).toBe(7);
    expect(sweepShard(42, '3f1c2b7e-8a4d-4c1e-9b2a-6d5e4f3a2b1c')).toBe(
      sweepShard(42, '3f1c2b7e-8a4d-4c1e-9b2a-6d5e4f3a2b1c'),
    );
  });

  it('depends on the company and the id, never on the due time: a move keeps the shard, only the hour changes', () => {
    const a = sweepItemKey(7, 'b1', '2026-12-04T18:20:00.000Z');
    const b = sweepItemKey(7, 'b1', '2026-12-09T11:05:00.000Z');
    expect(a.pk.slice(-3)).toBe(b.pk.slice(-3));
    expect(sweepShard(7, 'b1')).not.toBe(sweepShard(8, 'b1'));
  });

  it('lies in 0…SWEEP_SHARDS-1 and spreads 16,000 ids of 40 companies within a fifth of even over the shards', () => {
    const counts = new Array<number>(SWEEP_SHARDS).fill(0);
    for (let c = 1; c <= 40; c++)
      for (let i = 0; i < 400; i++) {
        const shard = sweepShard(c, `b${i}-${c * 7919}`);
        expect(Number.isInteger(shard) && shard >= 0 && shard < SWEEP_SHARDS).toBe(true);
        counts[shard]! += 1;
      }
    const even = 16_000 / SWEEP_SHARDS;
    expect(Math.min(...counts)).toBeGreaterThan(even * 0.8);
    expect(Math.max(...counts)).toBeLessThan(even * 1.2);
  });
});
