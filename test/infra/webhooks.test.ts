/**
 * The webhook pipeline's nested stack: stream → Pipe (outbox INSERTs only) → bus → rule → fan-out
 * queue → dispatcher → delivery queue → delivery function, with dead-letter queues, redrive,
 * partial batch failures, timeouts that fit the 30 s receiver timeout, the delivery function's
 * concurrency cap (a stage setting), alarms, and roles that allow only what each part does. (cdk-nag and the resource budget run on every stack in
 * nag.test.ts and budget.test.ts.)
 */
import { NestedStack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import {
  DELIVERY_FUNCTION_TIMEOUT,
  DELIVERY_MAX_RECEIVES,
  DISPATCHER_FUNCTION_TIMEOUT,
  FAN_OUT_MAX_RECEIVES,
  OUTBOX_DETAIL_TYPE,
  OUTBOX_SOURCE,
  pipelineContextKeys,
  pipelineDefaults,
} from '../../infra/webhooks-pipeline';
import { matchesPattern } from '../../shared/webhooks/filter';
import { MAX_ATTEMPTS, leaseMs } from '../../shared/webhooks/schedule';
import { DEFAULT_TIMEOUT_MS } from '../../shared/webhooks/settings';
import { DEAD_DELIVERIES_METRIC, METRICS_NAMESPACE } from '../../shared/webhooks/telemetry';
import { synthesize, type TemplateResource } from './synth';

type Resource = TemplateResource;

const pipelineOf = (synth: ReturnType<typeof synthesize>) =>
  synth.stacks.find((s) => NestedStack.isNestedStack(s) && s.node.id === 'WebhooksPipeline')!;
const resourcesOf = (synth: ReturnType<typeof synthesize>) =>
  synth.template(pipelineOf(synth)).toJSON().Resources as Record<string, Resource>;
const synth = synthesize();
const pipeline = pipelineOf(synth);
const resources = resourcesOf(synth);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const idOf = (prefix: string) => Object.keys(resources).find((id) => id.startsWith(prefix))!;
const ref = (prefix: string) => ({ Ref: idOf(prefix) });
const arnOf = (prefix: string) => ({ 'Fn::GetAtt': [idOf(prefix), 'Arn'] });
const functionNamed = (name: string) =>
  ofType('AWS::Lambda::Function').find(([, f]) => f.Properties.FunctionName === name)!;
/** The Allow statements of a role (its denies, of the guarded item families, are in access.test.ts). */
const statementsOf = (roleIdPrefix: string) =>
  (
    ofType('AWS::IAM::Policy').find(
      ([, p]) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: idOf(roleIdPrefix) }]),
    )![1].Properties.PolicyDocument.Statement as {
      Effect: string;
      Action: string | string[];
      Resource: unknown;
    }[]
  ).filter((s) => s.Effect === 'Allow');
const actions = (statements: { Action: string | string[] }[]) => statements.flatMap((s) => [s.Action].flat()).sort();

describe('webhook pipeline stack', () => {
  it("is a nested stack of the stage, given the table's stream", () => {
    expect(pipeline).toBeDefined();
    const parent = synth.template(synth.stack).toJSON().Resources as Record<string, Resource>;
    const nested = Object.values(parent).find(
      (r) =>
        r.Type === 'AWS::CloudFormation::Stack' && JSON.stringify(r.Properties.Parameters ?? {}).includes('StreamArn'),
    );
    expect(nested).toBeDefined();
  });

  it('pipes only new outbox items from the table stream to the outbox bus, failed batches to a DLQ', () => {
    const [[, pipe]] = ofType('AWS::Pipes::Pipe') as [[string, Resource]];
    expect(pipe.Properties).toMatchObject({
      Name: 'brigade-dev-outbox',
      Source: { Ref: expect.stringMatching(/StreamArn$/) },
      Target: arnOf('OutboxBus'),
      TargetParameters: { EventBridgeEventBusParameters: { Source: OUTBOX_SOURCE, DetailType: OUTBOX_DETAIL_TYPE } },
      SourceParameters: {
        DynamoDBStreamParameters: {
          StartingPosition: 'TRIM_HORIZON',
          DeadLetterConfig: { Arn: arnOf('PipeDeadLetters') },
          MaximumRetryAttempts: expect.any(Number),
        },
      },
      LogConfiguration: { Level: 'ERROR' },
    });
    const filters = pipe.Properties.SourceParameters.FilterCriteria.Filters as { Pattern: string }[];
    expect(filters).toHaveLength(1);
    const pattern = JSON.parse(filters[0]!.Pattern);
    expect(pattern).toEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['OUTBOX'] } } } });
    // The local stage's reader applies this same pattern.
    expect(matchesPattern(pattern, { eventName: 'INSERT', dynamodb: { NewImage: { entity: { S: 'OUTBOX' } } } })).toBe(
      true,
    );
    expect(matchesPattern(pattern, { eventName: 'MODIFY', dynamodb: { NewImage: { entity: { S: 'OUTBOX' } } } })).toBe(
      false,
    );
    expect(pipe.DependsOn).toEqual(expect.arrayContaining([idOf('PipeRoleDefaultPolicy')]));
  });

  it('lets the Pipe read the stream, put on the bus, write its DLQ and logs, and nothing else', () => {
    const statements = statementsOf('PipeRole');
    expect(actions(statements)).toEqual(
      [
        'dynamodb:DescribeStream',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:ListStreams',
        'events:PutEvents',
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:SendMessage',
      ].sort(),
    );
    expect(statements.find((s) => [s.Action].flat().includes('dynamodb:GetRecords'))!.Resource).toEqual({
      Ref: expect.stringMatching(/StreamArn$/),
    });
  });

  it('routes outbox items from the bus to the fan-out queue, with a DLQ for failed sends', () => {
    const [[, rule]] = ofType('AWS::Events::Rule') as [[string, Resource]];
    expect(rule.Properties).toMatchObject({
      EventBusName: ref('OutboxBus'),
      EventPattern: { source: [OUTBOX_SOURCE], 'detail-type': [OUTBOX_DETAIL_TYPE] },
      Targets: [{ Arn: arnOf('FanOutQueue'), DeadLetterConfig: { Arn: arnOf('FanOutDeadLetters') } }],
    });
  });

  it('gives both work queues a DLQ by redrive, receive counts above what processing needs, and visibility of 6 × the consumer timeout', () => {
    expect(resources[idOf('FanOutQueue')]!.Properties).toMatchObject({
      RedrivePolicy: { deadLetterTargetArn: arnOf('FanOutDeadLetters'), maxReceiveCount: FAN_OUT_MAX_RECEIVES },
      VisibilityTimeout: 6 * DISPATCHER_FUNCTION_TIMEOUT.toSeconds(),
    });
    expect(resources[idOf('DeliveryQueue')]!.Properties).toMatchObject({
      RedrivePolicy: { deadLetterTargetArn: arnOf('DeliveryDeadLetters'), maxReceiveCount: DELIVERY_MAX_RECEIVES },
      VisibilityTimeout: 6 * DELIVERY_FUNCTION_TIMEOUT.toSeconds(),
    });
    expect(DELIVERY_MAX_RECEIVES).toBeGreaterThan(MAX_ATTEMPTS);
    // Messages outlive the whole retry schedule (~28 h).
    expect(resources[idOf('DeliveryQueue')]!.Properties.MessageRetentionPeriod).toBeGreaterThan(28 * 3600);
  });

  it('encrypts every queue and refuses requests without TLS', () => {
    const queues = ofType('AWS::SQS::Queue');
    expect(queues).toHaveLength(5);
    for (const [id, q] of queues) {
      expect(q.Properties.SqsManagedSseEnabled, id).toBe(true);
      const [, policy] = ofType('AWS::SQS::QueuePolicy').find(
        ([, p]) => JSON.stringify(p.Properties.Queues) === JSON.stringify([{ Ref: id }]),
      )!;
      expect(policy.Properties.PolicyDocument.Statement, id).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 'sqs:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });

  it('runs the dispatcher and the delivery function from the queues, with partial batch failures', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties);
    const [dispatcherId] = functionNamed('brigade-dev-webhook-dispatcher');
    const [deliveryId] = functionNamed('brigade-dev-webhook-delivery');
    expect(mappings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          EventSourceArn: arnOf('FanOutQueue'),
          FunctionName: { Ref: dispatcherId },
          FunctionResponseTypes: ['ReportBatchItemFailures'],
        }),
        expect.objectContaining({
          EventSourceArn: arnOf('DeliveryQueue'),
          FunctionName: { Ref: deliveryId },
          FunctionResponseTypes: ['ReportBatchItemFailures'],
        }),
      ]),
    );
    expect(mappings).toHaveLength(2);
  });

  describe("the delivery function's concurrency", () => {
    /** The delivery queue's event source mapping, as a stack synthesized with `context` has it. */
    const deliveryMapping = (context?: Record<string, unknown>) => {
      const all = context ? resourcesOf(synthesize({ context })) : resources;
      const queueId = Object.keys(all).find((id) => id.startsWith('DeliveryQueue'))!;
      const [mapping] = Object.values(all).filter(
        (r) =>
          r.Type === 'AWS::Lambda::EventSourceMapping' &&
          JSON.stringify(r.Properties.EventSourceArn) === JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] }),
      );
      return mapping!.Properties;
    };

    it('is capped at the event source by the stage setting, so slow receivers leave the rest of the account to the API', () => {
      expect(deliveryMapping().ScalingConfig).toEqual({ MaximumConcurrency: pipelineDefaults.dev.deliveryConcurrency });
      expect(deliveryMapping({ stage: 'prod' }).ScalingConfig).toEqual({
        MaximumConcurrency: pipelineDefaults.prod.deliveryConcurrency,
      });
      // A small share of an account's default 1,000 concurrent executions, and what SQS event sources accept.
      for (const { deliveryConcurrency } of Object.values(pipelineDefaults)) {
        expect(deliveryConcurrency).toBeGreaterThanOrEqual(2);
        expect(deliveryConcurrency).toBeLessThanOrEqual(100);
      }
      // A cap at the event source, not reserved concurrency: nothing that would fail a deploy into a small account.
      const [, delivery] = functionNamed('brigade-dev-webhook-delivery');
      expect(delivery.Properties).not.toHaveProperty('ReservedConcurrentExecutions');
      // The dispatcher waits on no receiver and is not capped.
      const fanOut = ofType('AWS::Lambda::EventSourceMapping').find(
        ([, m]) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify(arnOf('FanOutQueue')),
      )!;
      expect(fanOut[1].Properties).not.toHaveProperty('ScalingConfig');
    });

    it('takes its cap from CDK context', () => {
      expect(deliveryMapping({ [pipelineContextKeys.deliveryConcurrency]: '12' }).ScalingConfig).toEqual({
        MaximumConcurrency: 12,
      });
    });

    it.each(['1', '1001', '2.5', 'many'])('refuses -c webhookDeliveryConcurrency=%s', (value) => {
      expect(() => synthesize({ context: { [pipelineContextKeys.deliveryConcurrency]: value } })).toThrow(
        `-c webhookDeliveryConcurrency=${value}: the delivery function's maximum concurrency is a whole number from 2 to 1000`,
      );
    });
  });

  it('gives the delivery function time for a 30 s receiver, less than a claim lasts', () => {
    const [, delivery] = functionNamed('brigade-dev-webhook-delivery');
    const [, dispatcher] = functionNamed('brigade-dev-webhook-dispatcher');
    expect(delivery.Properties).toMatchObject({
      Timeout: DELIVERY_FUNCTION_TIMEOUT.toSeconds(),
      Runtime: 'nodejs22.x',
      Handler: 'index.handler',
    });
    expect(dispatcher.Properties.Timeout).toBe(DISPATCHER_FUNCTION_TIMEOUT.toSeconds());
    expect(DELIVERY_FUNCTION_TIMEOUT.toSeconds()).toBeGreaterThan(DEFAULT_TIMEOUT_MS / 1000);
    expect(leaseMs(DEFAULT_TIMEOUT_MS)).toBeGreaterThan(DELIVERY_FUNCTION_TIMEOUT.toMilliseconds());
    expect(delivery.Properties.Environment.Variables).toMatchObject({
      STAGE: 'dev',
      DELIVERY_QUEUE_URL: ref('DeliveryQueue'),
      DELIVERY_DLQ_URL: ref('DeliveryDeadLetters'),
    });
    expect(dispatcher.Properties.Environment.Variables).toMatchObject({
      STAGE: 'dev',
      DELIVERY_QUEUE_URL: ref('DeliveryQueue'),
    });
  });

  it('gives each function its own role with only the table actions it uses', () => {
    const table = { Ref: expect.stringMatching(/Table.*Arn$/) };
    const dispatcher = statementsOf('DispatcherRole');
    expect(dispatcher).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Action: 'dynamodb:Query', Resource: { 'Fn::Join': ['', [table, '/index/gsi1']] } }),
        expect.objectContaining({ Action: 'dynamodb:PutItem', Resource: table }),
      ]),
    );
    expect(actions(dispatcher).filter((a) => a.startsWith('dynamodb:'))).toEqual([
      'dynamodb:PutItem',
      'dynamodb:Query',
    ]);
    expect(actions(dispatcher)).toContain('sqs:SendMessage');

    const delivery = statementsOf('DelivererRole');
    expect(actions(delivery).filter((a) => a.startsWith('dynamodb:'))).toEqual([
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
    expect(delivery.find((s) => [s.Action].flat().includes('dynamodb:GetItem'))!.Resource).toEqual(table);
    // SendMessage and nothing more on the dead letters (no GetQueueAttributes/GetQueueUrl: nothing calls them).
    expect(
      delivery
        .filter((s) => JSON.stringify(s.Resource) === JSON.stringify(arnOf('DeliveryDeadLetters')))
        .flatMap((s) => [s.Action].flat()),
    ).toEqual(['sqs:SendMessage']);
    expect(
      actions(dispatcher)
        .filter((a) => a.startsWith('sqs:') && a !== 'sqs:SendMessage')
        .sort(),
    ).toEqual([
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:ReceiveMessage',
    ]);
    expect(actions(delivery)).toContain('sqs:ChangeMessageVisibility');
    for (const s of [...dispatcher, ...delivery])
      expect(JSON.stringify(s.Resource), JSON.stringify(s.Action)).not.toBe('"*"');
  });

  it('alarms on every dead-letter queue, on Pipe failures and on dead deliveries', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const depth = alarms
      .filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible')
      .map((a) => JSON.stringify(a.Dimensions));
    for (const dlq of ['FanOutDeadLetters', 'DeliveryDeadLetters', 'PipeDeadLetters'])
      expect(
        depth.some((d) => d.includes(idOf(dlq))),
        dlq,
      ).toBe(true);
    expect(alarms).toContainEqual(
      expect.objectContaining({
        Namespace: 'AWS/EventBridge/Pipes',
        MetricName: 'ExecutionFailed',
        Dimensions: [{ Name: 'PipeName', Value: 'brigade-dev-outbox' }],
      }),
    );
    expect(alarms).toContainEqual(
      expect.objectContaining({
        Namespace: METRICS_NAMESPACE,
        MetricName: DEAD_DELIVERIES_METRIC,
        Dimensions: [
          { Name: 'service', Value: 'brigade' },
          { Name: 'stage', Value: 'dev' },
        ],
      }),
    );
    for (const a of alarms)
      expect(a).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        AlarmDescription: expect.any(String),
      });
  });
});
