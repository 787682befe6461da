/** The no-show sweeper Lambda reads the sweep partitions of the last 24 hours, one Query each, and never scans. */
import { DynamoDBDocumentClient, GetCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';

process.env.STAGE = 'local';
process.env.TABLE_NAME = 'unit';
resetConfig();
setDb(undefined);
const ddb = mockClient(DynamoDBDocumentClient);
afterAll(() => ddb.restore());

describe('functions/sweeper/no-shows', () => {
  it('queries each hour partition up to now with sk before now, and skips bookings that are no longer confirmed', async () => {
    const now = Date.parse('2026-12-04T18:30:00Z');
    const due = {
      pk: 'SWEEP#2026-12-04T18',
      sk: `2026-12-04T18:20:00.000Z#7#b1`,
      companyId: 7,
      bookingId: 'b1',
      dueAt: '2026-12-04T18:20:00.000Z',
    };
    ddb.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => ({
      Items: input.ExpressionAttributeValues[':pk'] === due.pk ? [due] : [],
    }));
    ddb.on(GetCommand).resolves({ Item: { id: 'b1', status: 'seated' } });
    const { sweepNoShows } = await import('../../shared/domain/bookings/transitions');
    expect(await sweepNoShows(now)).toBe(0);

    const queries = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(queries).toHaveLength(25);
    expect(queries[0]!.ExpressionAttributeValues).toEqual({
      ':pk': 'SWEEP#2026-12-03T18',
      ':sk': '2026-12-04T18:30:00.000Z#~',
    });
    expect(queries.at(-1)!.ExpressionAttributeValues![':pk']).toBe('SWEEP#2026-12-04T18');
    expect(ddb.commandCalls(GetCommand).map((c) => c.args[0].input.Key)).toEqual([{ pk: 'C#7', sk: 'BOOKING#b1' }]);
    expect(ddb.commandCalls(ScanCommand)).toHaveLength(0);
  });

  it('reads the offer-lapse partitions the same way and expires a lapsed offer found there', async () => {
    ddb.reset();
    const now = Date.parse('2026-12-04T18:30:00Z');
    const due = {
      pk: 'SWEEP#WAITLIST#2026-12-04T18',
      sk: '2026-12-04T18:20:00.000Z#7#e1',
      companyId: 7,
      entryId: 'e1',
      dueAt: '2026-12-04T18:20:00.000Z',
    };
    ddb.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => ({
      Items: input.ExpressionAttributeValues[':pk'] === due.pk ? [due] : [],
    }));
    // Accepted meanwhile: nothing to expire.
    ddb.on(GetCommand).resolves({ Item: { id: 'e1', status: 'accepted', offer: { expiresAt: due.dueAt } } });
    const { sweepLapsedOffers } = await import('../../shared/domain/waitlist/operations');
    expect(await sweepLapsedOffers(now)).toBe(0);
    const queries = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(queries).toHaveLength(25);
    expect(queries[0]!.ExpressionAttributeValues).toEqual({
      ':pk': 'SWEEP#WAITLIST#2026-12-03T18',
      ':sk': '2026-12-04T18:30:00.000Z#~',
    });
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
