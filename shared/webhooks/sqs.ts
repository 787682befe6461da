/**
 * The AWS edge of the delivery queue: messages carry a delivery reference (the delivery record is
 * the truth); waiting for the next attempt is the message's visibility timeout.
 */
import {
  ChangeMessageVisibilityCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { DeliveryRef } from '../data/outbox';
import { captured } from '../runtime/tracing';
import type { Enqueue } from './dispatch';

let client: SQSClient | undefined;
const sqs = () => (client ??= captured(new SQSClient({})));

/** SQS keeps a message invisible for at most 12 hours. */
const MAX_VISIBILITY_SECONDS = 12 * 3600;
const BATCH = 10;

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const deliveryMessage = (ref: DeliveryRef): string => JSON.stringify(ref);

export function parseDeliveryMessage(body: string): DeliveryRef {
  const ref = JSON.parse(body) as Partial<DeliveryRef>;
  if (
    !Number.isInteger(ref.companyId) ||
    typeof ref.subscriptionId !== 'string' ||
    typeof ref.deliveryId !== 'string' ||
    !Number.isInteger(ref.round)
  ) {
    throw new Error('not a delivery message');
  }
  return ref as DeliveryRef;
}

/** Sends one message per delivery to the delivery queue, ten per call. */
export const sqsEnqueue =
  (queueUrl: string): Enqueue =>
  async (refs) => {
    for (let i = 0; i < refs.length; i += BATCH) {
      const entries = refs.slice(i, i + BATCH).map((ref, n) => ({ Id: String(n), MessageBody: deliveryMessage(ref) }));
      const out = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      if (out.Failed?.length)
        throw new Error(
          `${out.Failed.length} delivery message(s) not queued: ${out.Failed.map((f) => f.Code).join(', ')}`,
        );
    }
  };

/** Makes a received message come back at `at` (epoch ms), within SQS's limits. */
export async function deferMessage(
  queueUrl: string,
  receiptHandle: string,
  at: number,
  now = Date.now(),
): Promise<number> {
  const seconds = Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.ceil((at - now) / 1000)));
  await sqs().send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl,
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: seconds,
    }),
  );
  return seconds;
}

export async function sendToQueue(queueUrl: string, body: string): Promise<void> {
  await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
}
