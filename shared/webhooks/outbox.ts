/** An outbox item as a stream record carries it (DynamoDB JSON) → what it asks of the pipeline. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { outboxMessageOf, type OutboxMessage } from '../data/outbox';

export const outboxMessageFromImage = (image: Record<string, AttributeValue>): OutboxMessage =>
  outboxMessageOf(unmarshall(image));
