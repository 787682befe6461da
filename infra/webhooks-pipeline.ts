/**
 * The webhook pipeline (README.md, “Architecture”), a nested stack of its own:
 *
 *   table stream → EventBridge Pipe (new outbox items only) → event bus → rule → fan-out queue
 *   → dispatcher Lambda (a delivery record and a message per matching subscription)
 *   → delivery queue → delivery Lambda (sign, POST, record; retries wait in the message's
 *   visibility timeout; dead deliveries move to the dead-letter queue with an alert)
 *
 * Every queue is encrypted (SQS-managed keys), refuses non-TLS requests and has a dead-letter
 * queue; alarms watch the dead-letter queues, the Pipe's failures and the dead-delivery metric.
 * The two functions and the Pipe each have a role that allows only what they do. The delivery
 * function's concurrency is capped at the queue's event source (a stage setting, see
 * `pipelineSettings`), so slow receivers make deliveries wait in the queue instead of taking the
 * account's Lambda concurrency from the API.
 */
import { Duration, NestedStack, Validations, type NestedStackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as pipes from 'aws-cdk-lib/aws-pipes';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct, type Node } from 'constructs';
import { outboxFilterPattern } from '../shared/webhooks/filter';
import { MAX_ATTEMPTS, leaseMs } from '../shared/webhooks/schedule';
import { DEFAULT_TIMEOUT_MS } from '../shared/webhooks/settings';
import { DEAD_DELIVERIES_METRIC, METRICS_NAMESPACE } from '../shared/webhooks/telemetry';
import { functionGrants, type Grants } from './data-access';
import { HandlerFunction } from './handler-function';
import { grantData } from './handler-role';
import type { DeployStage, Durability } from './settings';
import type { BrigadeTable } from './table';

/** How the Pipe labels outbox items on the bus, and what the rule selects. */
export const OUTBOX_SOURCE = 'brigade.outbox';
export const OUTBOX_DETAIL_TYPE = 'Outbox item';

/** A receiver gets 30 s; the rest is bookkeeping. Shorter than a claim's lease, so no attempt outlives it. */
export const DELIVERY_FUNCTION_TIMEOUT = Duration.seconds(DEFAULT_TIMEOUT_MS / 1000 + 30);
export const DISPATCHER_FUNCTION_TIMEOUT = Duration.seconds(30);
/** AWS's guidance for a queue a Lambda function consumes: a visibility timeout of 6 × the function's timeout. */
const visibilityFor = (timeout: Duration) => Duration.seconds(6 * timeout.toSeconds());
/**
 * A delivery message is received once per attempt (8), plus at most once before each attempt when
 * it was deferred (a duplicate message, a claim held elsewhere): the redrive policy is a backstop
 * for messages that cannot be processed at all, never for deliveries still on their schedule.
 */
export const DELIVERY_MAX_RECEIVES = 2 * MAX_ATTEMPTS + 4;
export const FAN_OUT_MAX_RECEIVES = 5;

/** What a stage sets for its webhook pipeline (CDK context, see `pipelineSettings`). */
export interface PipelineSettings {
  /**
   * The most instances of the delivery function the delivery queue's event source runs at once
   * (`ScalingConfig.MaximumConcurrency`). Each instance attempts a batch of up to 10 deliveries
   * together and waits on their receivers for up to 30 s, so receivers that hang would otherwise
   * have the event source scale towards the account's whole concurrency and throttle the API's
   * functions. At the cap, messages wait in the queue, unreceived: their visibility timeouts and
   * receive counts, and so the retry schedule and the redrive, are as without it.
   *
   * A ceiling, not a reservation (unlike the authorizer's reserved concurrency, infra/edge.ts): it
   * holds nothing back from other functions and deploys into an account of any quota.
   */
  deliveryConcurrency: number;
}

/**
 * Defaults. prod 50: 5 % of an account's default 1,000 concurrent executions, so the API keeps 950
 * however slow the receivers are, while even when every receiver hangs for the whole 30 s the
 * pipeline still attempts 50 × 10 deliveries per ~30 s (about 16 a second, 60,000 an hour); with
 * receivers answering within a second it attempts hundreds a second. dev 5: a new account's
 * quota may be 10, and half of it stays for the API; 5 × 10 per 30 s is plenty for testing.
 */
export const pipelineDefaults: Record<DeployStage, PipelineSettings> = {
  dev: { deliveryConcurrency: 5 },
  prod: { deliveryConcurrency: 50 },
};

/** The context key of each setting (`npx cdk deploy -c stage=prod -c webhookDeliveryConcurrency=100`). */
export const pipelineContextKeys = {
  deliveryConcurrency: 'webhookDeliveryConcurrency',
} as const satisfies Record<keyof PipelineSettings, string>;

/** What an SQS event source accepts as its maximum concurrency. */
const MIN_CONCURRENCY = 2;
const MAX_CONCURRENCY = 1_000;

/** The stage's pipeline settings: its defaults, with what CDK context overrides (checked here). */
export function pipelineSettings(node: Node, stage: DeployStage): PipelineSettings {
  const key = pipelineContextKeys.deliveryConcurrency;
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === '') return pipelineDefaults[stage];
  const value = Number(raw);
  if (!Number.isInteger(value) || value < MIN_CONCURRENCY || value > MAX_CONCURRENCY)
    throw new Error(
      `-c ${key}=${String(raw)}: the delivery function's maximum concurrency is a whole number from ${MIN_CONCURRENCY} to ${MAX_CONCURRENCY} (what an SQS event source accepts)`,
    );
  return { deliveryConcurrency: value };
}

export interface WebhooksPipelineProps extends NestedStackProps {
  stage: DeployStage;
  durability: Durability;
  table: BrigadeTable;
  /** What every Brigade function gets (STAGE, TABLE_NAME, …). */
  environment: Record<string, string>;
  settings: PipelineSettings;
}

const secureQueue = (scope: Construct, id: string, props: sqs.QueueProps = {}) =>
  new sqs.Queue(scope, id, { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true, ...props });

/** Fires as soon as a queue holds a message: for dead-letter queues, where nothing should be. */
function depthAlarm(queue: sqs.Queue, description: string): cloudwatch.Alarm {
  return queue
    .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM })
    .createAlarm(queue, 'DepthAlarm', {
      alarmDescription: description,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
}

/** A work queue and its dead-letter queue (kept 14 days, alarmed). */
class WorkQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;

  constructor(
    scope: Construct,
    id: string,
    props: { visibilityTimeout: Duration; maxReceiveCount: number; alarm: string },
  ) {
    super(scope, id);
    this.deadLetters = secureQueue(this, 'DeadLetters', { retentionPeriod: Duration.days(14) });
    this.queue = secureQueue(this, 'Queue', {
      visibilityTimeout: props.visibilityTimeout,
      // Longer than the whole retry schedule (~28 h).
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: props.maxReceiveCount },
    });
    depthAlarm(this.deadLetters, props.alarm);
  }
}

interface PipelineFunctionProps {
  entry: string;
  functionName: string;
  environment: Record<string, string>;
  durability: Durability;
  timeout: Duration;
}

/** A queue consumer: its own role (logs only, until granted more) and its own timeout. */
class PipelineFunction extends Construct {
  readonly function: lambda.IFunction;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: PipelineFunctionProps) {
    super(scope, id);
    this.role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    // HandlerFunction sizes functions for API requests (10 s); these wait on receivers and queues.
    const handler = new HandlerFunction(this, 'Handler', { ...props, role: this.role });
    handler.logGroup.grantWrite(this.role);
    this.function = handler.function;
  }

  /** Runs the function from the queue; `maxConcurrency` caps how many instances the event source runs at once. */
  consume(queue: sqs.Queue, maxConcurrency?: number): void {
    this.function.addEventSource(
      new SqsEventSource(queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency }),
    );
  }

  /** The item families of the table it may touch (data-access.ts), nothing else of it. */
  allowData(table: BrigadeTable, grants: Grants): void {
    grantData(this.role, table, grants);
  }
}

export class WebhooksPipeline extends NestedStack {
  readonly pipe: pipes.CfnPipe;

  constructor(
    scope: Construct,
    id: string,
    { stage, durability, table, environment, settings, ...props }: WebhooksPipelineProps,
  ) {
    super(scope, id, props);
    if (leaseMs(DEFAULT_TIMEOUT_MS) <= DELIVERY_FUNCTION_TIMEOUT.toMilliseconds())
      throw new Error('a delivery claim must outlast the delivery function');

    const fanOut = new WorkQueue(this, 'FanOut', {
      visibilityTimeout: visibilityFor(DISPATCHER_FUNCTION_TIMEOUT),
      maxReceiveCount: FAN_OUT_MAX_RECEIVES,
      alarm:
        'Outbox items the dispatcher could not turn into deliveries: their webhooks are not sent. Inspect the messages, fix the cause, redrive them.',
    });
    const delivery = new WorkQueue(this, 'Delivery', {
      visibilityTimeout: visibilityFor(DELIVERY_FUNCTION_TIMEOUT),
      maxReceiveCount: DELIVERY_MAX_RECEIVES,
      alarm:
        'Webhook deliveries that died (8 failed attempts) or could not be processed. Each dead one has an alert; retry with POST /api/v1/webhooks/deliveries/{id}/retry.',
    });

    // Stream → Pipe → bus → rule → fan-out queue.
    const bus = new events.EventBus(this, 'OutboxBus', { eventBusName: `brigade-${stage}-outbox` });
    new events.Rule(this, 'OutboxToFanOut', {
      eventBus: bus,
      description: 'Outbox items to the webhook dispatcher',
      eventPattern: { source: [OUTBOX_SOURCE], detailType: [OUTBOX_DETAIL_TYPE] },
      targets: [new targets.SqsQueue(fanOut.queue, { deadLetterQueue: fanOut.deadLetters })],
    });
    this.pipe = this.outboxPipe(stage, durability, table, bus);

    const dispatcher = new PipelineFunction(this, 'Dispatcher', {
      entry: 'functions/pipeline/dispatcher.ts',
      functionName: `brigade-${stage}-webhook-dispatcher`,
      environment: { ...environment, DELIVERY_QUEUE_URL: delivery.queue.queueUrl },
      durability,
      timeout: DISPATCHER_FUNCTION_TIMEOUT,
    });
    // Reads the company's subscriptions (gsi1), creates delivery records, queues them.
    dispatcher.allowData(table, functionGrants.webhookDispatcher);
    // SendMessageBatch is authorized as sqs:SendMessage; grantSendMessages would add GetQueueAttributes
    // and GetQueueUrl, which nothing here calls (the URL is in the environment).
    delivery.queue.grant(dispatcher.role, 'sqs:SendMessage');
    // Uncapped: the dispatcher waits on no receiver, only on the table and the delivery queue.
    dispatcher.consume(fanOut.queue);

    const deliverer = new PipelineFunction(this, 'Deliverer', {
      entry: 'functions/pipeline/delivery.ts',
      functionName: `brigade-${stage}-webhook-delivery`,
      environment: {
        ...environment,
        DELIVERY_QUEUE_URL: delivery.queue.queueUrl,
        DELIVERY_DLQ_URL: delivery.deadLetters.queueUrl,
      },
      durability,
      timeout: DELIVERY_FUNCTION_TIMEOUT,
    });
    // Reads a delivery and its subscription (two GetItems), claims and records the delivery,
    // logs the attempt, raises the alert. Consuming the queue includes ChangeMessageVisibility.
    deliverer.allowData(table, functionGrants.webhookDeliverer);
    // A dead delivery's message (SendMessage only, as the dispatcher's).
    delivery.deadLetters.grant(deliverer.role, 'sqs:SendMessage');
    deliverer.consume(delivery.queue, settings.deliveryConcurrency);

    this.alarms(stage);
  }

  /** The Pipe: new outbox items from the table's stream to the bus; failed batches to its own DLQ. */
  private outboxPipe(
    stage: DeployStage,
    durability: Durability,
    table: BrigadeTable,
    bus: events.EventBus,
  ): pipes.CfnPipe {
    const deadLetters = secureQueue(this, 'PipeDeadLetters', { retentionPeriod: Duration.days(14) });
    depthAlarm(
      deadLetters,
      'Stream records the Pipe could not put on the outbox bus: their webhooks are not sent. The messages name the stream batches to replay.',
    );
    Validations.of(deadLetters).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is a dead-letter queue: the Pipe sends failed stream batches here (DeadLetterConfig), which cdk-nag does not recognise as it does a redrive policy.',
    });
    const logGroup = new logs.LogGroup(this, 'PipeLogs', {
      retention: durability.logRetention,
      removalPolicy: durability.removalPolicy,
    });

    const role = new iam.Role(this, 'PipeRole', { assumedBy: new iam.ServicePrincipal('pipes.amazonaws.com') });
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: [
          'dynamodb:DescribeStream',
          'dynamodb:GetRecords',
          'dynamodb:GetShardIterator',
          'dynamodb:ListStreams',
        ],
        resources: [table.tableStreamArn!],
      }),
    );
    bus.grantPutEventsTo(role);
    deadLetters.grantSendMessages(role);
    logGroup.grantWrite(role);

    const pipe = new pipes.CfnPipe(this, 'OutboxPipe', {
      name: `brigade-${stage}-outbox`,
      description: 'New outbox items of the table to the outbox bus',
      roleArn: role.roleArn,
      source: table.tableStreamArn!,
      sourceParameters: {
        dynamoDbStreamParameters: {
          // From the oldest record: items written before the Pipe existed still go out (dispatching is idempotent).
          startingPosition: 'TRIM_HORIZON',
          batchSize: 10,
          maximumRetryAttempts: 10,
          deadLetterConfig: { arn: deadLetters.queueArn },
        },
        filterCriteria: { filters: [{ pattern: JSON.stringify(outboxFilterPattern) }] },
      },
      target: bus.eventBusArn,
      targetParameters: { eventBridgeEventBusParameters: { source: OUTBOX_SOURCE, detailType: OUTBOX_DETAIL_TYPE } },
      logConfiguration: { level: 'ERROR', cloudwatchLogsLogDestination: { logGroupArn: logGroup.logGroupArn } },
    });
    // The Pipe checks its permissions when it is created: the role's policy must exist first.
    pipe.node.addDependency(role);
    return pipe;
  }

  private alarms(stage: DeployStage): void {
    const whenAny = {
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    };
    new cloudwatch.Metric({
      namespace: 'AWS/EventBridge/Pipes',
      metricName: 'ExecutionFailed',
      dimensionsMap: { PipeName: this.pipe.name! },
      statistic: cloudwatch.Stats.SUM,
      period: Duration.minutes(5),
    }).createAlarm(this, 'PipeFailuresAlarm', {
      ...whenAny,
      alarmDescription:
        'The outbox Pipe failed to move stream records to the bus; it retries, then sends them to its dead-letter queue.',
    });
    new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName: DEAD_DELIVERIES_METRIC,
      dimensionsMap: { service: 'brigade', stage },
      statistic: cloudwatch.Stats.SUM,
      period: Duration.minutes(5),
    }).createAlarm(this, 'DeadDeliveriesAlarm', {
      ...whenAny,
      alarmDescription: 'A webhook delivery failed 8 times and was dead-lettered; an alert names it.',
    });
  }
}
