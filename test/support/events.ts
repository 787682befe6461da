/**
 * A company's outbox items as the table holds them, read from every partition of its log
 * (shared/data/events.ts: per location, the company's shards, the log as it was before), oldest
 * first, as one Query's answer would give them: tests that look at what a change wrote read here.
 */
import type { QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { eventLogPartitions } from '../../shared/data/events';
import { ofEventType } from '../../shared/data/outbox';
import { queryAll } from '../../shared/data/paging';

/** Items as the document client answers them. */
type Items = NonNullable<QueryCommandOutput['Items']>;

export async function companyEvents(companyId: number, type?: string): Promise<{ Items: Items }> {
  const partitions = await eventLogPartitions(companyId);
  const read = await Promise.all(
    partitions.map((partition) =>
      type
        ? queryAll({ index: 'gsi1', partition: ofEventType(partition, type) }, Infinity)
        : queryAll({ partition, consistent: true }, Infinity),
    ),
  );
  return { Items: read.flat().sort((a, b) => String(a.sk).localeCompare(String(b.sk))) as Items };
}
