/**
 * Who hears about trouble, and where to look (docs/deploy.md "Alarms"): one SNS topic per stage
 * that every alarm of the app notifies, an e-mail subscription to it from the stage setting
 * `alarmEmail`, the API-wide alarms on the golden signals, and a dashboard with those signals per
 * route area.
 *
 * "Every alarm" is enforced, not remembered: an aspect visits the whole construct tree (nested
 * stacks included) and gives each alarm the topic as its alarm and OK action, so an alarm added
 * anywhere later notifies too (test/infra/monitoring.test.ts checks every alarm in every template).
 */
import { Aspects, Duration, NestedStack, Stack, type IAspect, type NestedStackProps } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct, IConstruct } from 'constructs';
import type { Route } from '../shared/routes';
import { operationFunctionName } from './handler-function';
import type { DeployStage } from './settings';

export interface MonitoringProps extends NestedStackProps {
  stage: DeployStage;
  /** Where alarms are e-mailed; empty: the topic has no subscriber (allowed on dev only, settings.ts). */
  alarmEmail: string;
  api: apigw.RestApi;
  table: dynamodb.ITable;
  routes: readonly Route[];
  /** The authorizer's function name: its throttles mean credentials are being refused at the door. */
  authorizerFunctionName: string;
}

const FIVE_MINUTES = Duration.minutes(5);

/** A nested stack of its own: the parent keeps only what every operation shares (budget.test.ts). */
export class Monitoring extends NestedStack {
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;

  constructor(
    scope: Construct,
    id: string,
    { stage, alarmEmail, api, table, routes, authorizerFunctionName, ...nested }: MonitoringProps,
  ) {
    super(scope, id, nested);
    this.topic = new sns.Topic(this, 'Alarms', {
      topicName: `brigade-${stage}-alarms`,
      displayName: `Brigade ${stage} alarms`,
      // Alarm texts name no guest, but the topic is encrypted all the same (cdk-nag SNS2), and
      // publishing needs TLS (SNS3).
      masterKey: kms.Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
      enforceSSL: true,
    });
    if (alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(alarmEmail));
    // Every alarm of the stage: the parent's tree holds every stack.
    Aspects.of(Stack.of(scope)).add(new NotifyTopic(this.topic));

    const apiMetric = (metricName: string, statistic: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiName: api.restApiName, Stage: stage },
        statistic,
        period: FIVE_MINUTES,
      });
    const atLeast = (threshold: number, evaluationPeriods = 1) => ({
      threshold,
      evaluationPeriods,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    // Errors: the share of answers that are 5xx (a count would page at night for one failure in a
    // quiet hour, and miss a real outage in a busy one), once at least 20 requests came.
    new cloudwatch.MathExpression({
      expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
      usingMetrics: { errors: apiMetric('5XXError', 'Sum'), requests: apiMetric('Count', 'Sum') },
      period: FIVE_MINUTES,
      label: '5xx answers (%)',
    }).createAlarm(this, 'ServerErrorsAlarm', {
      ...atLeast(1, 2),
      alarmDescription: "More than 1 % of the API's answers were 5xx for 10 minutes. Runbook: docs/deploy.md#api-5xx.",
    });
    // Latency: the slowest answers, over three periods so a cold-start burst alone does not page.
    apiMetric('Latency', 'p99').createAlarm(this, 'LatencyAlarm', {
      ...atLeast(3000, 3),
      alarmDescription: "The API's p99 latency stayed above 3 s for 15 minutes. Runbook: docs/deploy.md#api-latency.",
    });
    // Saturation: the table refusing work, and the authorizer at its reserved concurrency.
    new cloudwatch.MathExpression({
      expression: 'throttled + systemErrors',
      usingMetrics: {
        throttled: table.metric('ThrottledRequests', { statistic: 'Sum', period: FIVE_MINUTES }),
        systemErrors: table.metric('SystemErrors', { statistic: 'Sum', period: FIVE_MINUTES }),
      },
      period: FIVE_MINUTES,
      label: 'DynamoDB throttled requests and system errors',
    }).createAlarm(this, 'TableAlarm', {
      ...atLeast(10),
      alarmDescription: 'DynamoDB throttled or failed 10 or more requests in 5 minutes. Runbook: docs/deploy.md#table.',
    });
    new cloudwatch.Metric({
      namespace: 'AWS/Lambda',
      metricName: 'Throttles',
      dimensionsMap: { FunctionName: authorizerFunctionName },
      statistic: 'Sum',
      period: FIVE_MINUTES,
    }).createAlarm(this, 'AuthorizerThrottlesAlarm', {
      ...atLeast(50),
      alarmDescription:
        'The authorizer was throttled 50 or more times in 5 minutes: callers got 503. Runbook: docs/deploy.md#authorizer.',
    });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `brigade-${stage}`,
      defaultInterval: Duration.hours(6),
    });
    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: `# Brigade ${stage}\nThe whole API, then each route area: traffic, errors, latency, saturation. Alarms: topic \`brigade-${stage}-alarms\`; runbooks in docs/deploy.md.`,
        width: 24,
        height: 2,
      }),
      ...goldenRow('API', {
        traffic: [apiMetric('Count', 'Sum')],
        errors: [apiMetric('4XXError', 'Sum'), apiMetric('5XXError', 'Sum')],
        latency: [apiMetric('Latency', 'p50'), apiMetric('Latency', 'p99')],
        saturation: [
          table.metric('ThrottledRequests', { statistic: 'Sum', period: FIVE_MINUTES }),
          table.metric('SystemErrors', { statistic: 'Sum', period: FIVE_MINUTES }),
        ],
      }),
    );
    for (const [area, names] of functionsByArea(routes, stage)) this.dashboard.addWidgets(...areaRow(area, names));
  }
}

/** Gives every alarm in the tree the topic as alarm and OK action. */
class NotifyTopic implements IAspect {
  private readonly action: SnsAction;
  private readonly done = new WeakSet<cloudwatch.Alarm>();

  constructor(topic: sns.ITopic) {
    this.action = new SnsAction(topic);
  }

  visit(node: IConstruct): void {
    if (!(node instanceof cloudwatch.Alarm) || this.done.has(node)) return;
    this.done.add(node);
    node.addAlarmAction(this.action);
    node.addOkAction(this.action);
  }
}

function functionsByArea(routes: readonly Route[], stage: DeployStage): Map<string, string[]> {
  const byArea = new Map<string, string[]>();
  for (const r of routes)
    byArea.set(r.area, [...(byArea.get(r.area) ?? []), operationFunctionName(stage, r.operationId)]);
  return byArea;
}

interface Signals {
  traffic: cloudwatch.IMetric[];
  errors: cloudwatch.IMetric[];
  latency: cloudwatch.IMetric[];
  saturation: cloudwatch.IMetric[];
}

function goldenRow(title: string, s: Signals): cloudwatch.IWidget[] {
  const graph = (signal: string, metrics: cloudwatch.IMetric[]) =>
    new cloudwatch.GraphWidget({ title: `${title}: ${signal}`, left: metrics, width: 6, height: 5 });
  return [
    graph('traffic', s.traffic),
    graph('errors', s.errors),
    graph('latency', s.latency),
    graph('saturation', s.saturation),
  ];
}

/**
 * An area's functions, summed (traffic, errors, throttles) or at their worst (p99 duration,
 * concurrency). A dashboard graph may hold up to 500 metrics; the largest area has a few dozen.
 */
function areaRow(area: string, functionNames: string[]): cloudwatch.IWidget[] {
  // Metric ids are unique within a graph: each expression names its own after its metric.
  const over = (metricName: string, statistic: string, combine: 'SUM' | 'MAX', label: string) => {
    const id = (i: number) => `${metricName.charAt(0).toLowerCase()}${metricName.slice(1)}${i}`;
    return new cloudwatch.MathExpression({
      expression: `${combine}([${functionNames.map((_, i) => id(i)).join(',')}])`,
      usingMetrics: Object.fromEntries(
        functionNames.map((name, i) => [
          id(i),
          new cloudwatch.Metric({
            namespace: 'AWS/Lambda',
            metricName,
            dimensionsMap: { FunctionName: name },
            statistic,
            period: FIVE_MINUTES,
          }),
        ]),
      ),
      period: FIVE_MINUTES,
      label,
    });
  };
  return goldenRow(area, {
    traffic: [over('Invocations', 'Sum', 'SUM', 'invocations')],
    errors: [over('Errors', 'Sum', 'SUM', 'function errors')],
    latency: [over('Duration', 'p99', 'MAX', 'p99 duration, slowest function')],
    saturation: [
      over('Throttles', 'Sum', 'SUM', 'throttles'),
      over('ConcurrentExecutions', 'Maximum', 'MAX', 'concurrency, busiest function'),
    ],
  });
}
