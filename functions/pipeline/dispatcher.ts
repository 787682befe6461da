/**
 * The dispatcher Lambda. Table stream → EventBridge Pipe (new outbox items) → event bus → rule →
 * fan-out queue → here: each message is an EventBridge event whose detail is the stream record;
 * its outbox item becomes delivery records and messages on the delivery queue. Partial batch
 * failures: only the messages that failed come back.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Context, DynamoDBRecord, SQSEvent, SQSRecord } from 'aws-lambda';
import { dispatch } from '../../shared/webhooks/dispatch';
import { outboxMessageFromImage } from '../../shared/webhooks/outbox';
import { requiredEnv, sqsEnqueue } from '../../shared/webhooks/sqs';
import { traced } from '../../shared/runtime/tracing';

const processor = new BatchProcessor(EventType.SQS);
const enqueue = sqsEnqueue(requiredEnv('DELIVERY_QUEUE_URL'));

async function dispatchRecord(record: SQSRecord): Promise<void> {
  const { detail } = JSON.parse(record.body) as { detail: DynamoDBRecord };
  await dispatch(outboxMessageFromImage(detail.dynamodb!.NewImage as Record<string, AttributeValue>), enqueue);
}

export const handler = traced((event: SQSEvent, context: Context) =>
  processPartialResponse(event, dispatchRecord, processor, { context }),
);
