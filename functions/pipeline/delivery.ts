/**
 * The delivery Lambda: one attempt per message of the delivery queue. A 2xx deletes the message;
 * a failure makes it reappear when the next attempt is due (ChangeMessageVisibility and a partial
 * batch failure); after the 8th failure the delivery is dead, an alert was written, the metric is
 * counted and the message moves to the dead-letter queue.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { config } from '../../shared/config';
import { attemptDelivery } from '../../shared/webhooks/delivery';
import { traced } from '../../shared/runtime/tracing';
import { deferMessage, parseDeliveryMessage, requiredEnv, sendToQueue } from '../../shared/webhooks/sqs';
import { DEAD_DELIVERIES_METRIC, METRICS_NAMESPACE } from '../../shared/webhooks/telemetry';

const processor = new BatchProcessor(EventType.SQS);
const queueUrl = requiredEnv('DELIVERY_QUEUE_URL');
const deadLetterUrl = requiredEnv('DELIVERY_DLQ_URL');
// The alarm on dead deliveries names exactly these dimensions: service and stage.
const metrics = new Metrics({
  namespace: METRICS_NAMESPACE,
  serviceName: 'brigade',
  defaultDimensions: { stage: config().stage },
});

/** Reported as the record's failure so that SQS keeps the message for the next attempt. */
class Deferred extends Error {
  override name = 'Deferred';
}

async function deliverRecord(record: SQSRecord): Promise<void> {
  const outcome = await attemptDelivery(parseDeliveryMessage(record.body));
  if (outcome.kind === 'retry' || outcome.kind === 'wait') {
    const seconds = await deferMessage(queueUrl, record.receiptHandle, outcome.at);
    throw new Deferred(`next attempt in ${seconds} s`);
  }
  if (outcome.kind === 'dead') {
    await sendToQueue(deadLetterUrl, record.body);
    metrics.singleMetric().addMetric(DEAD_DELIVERIES_METRIC, MetricUnit.Count, 1);
  }
}

// Failures are the normal way to wait for a retry: a batch of them is not an error of the function.
export const handler = traced((event: SQSEvent, context: Context) =>
  processPartialResponse(event, deliverRecord, processor, { context, throwOnFullBatchFailure: false }),
);
