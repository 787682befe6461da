/**
 * Alarms reach someone (infra/monitoring.ts): one topic per stage, e-mailed from the stage setting,
 * every alarm of every stack notifying it; the API-wide golden-signal alarms; the dashboard with a
 * row per route area.
 */
import { App, NestedStack, type Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { stageSettings } from '../../infra/settings';
import { routes } from '../../shared/routes';
import { synthesize, syntheticRoutes, TEST_ALARM_EMAIL, type TemplateResource } from './synth';

type Resource = TemplateResource;
type Template = { Resources: Record<string, Resource>; Outputs?: Record<string, { Value: unknown }> };

const synth = synthesize();
const templateOf = (stack: Stack) => synth.template(stack).toJSON() as Template;
const ofType = (resources: Record<string, Resource>, type: string) =>
  Object.entries(resources).filter(([, r]) => r.Type === type);
const monitoring = synth.stacks.find((s) => NestedStack.isNestedStack(s) && s.node.id === 'Monitoring')!;
const own = templateOf(monitoring).Resources;
const [[topicId, topic]] = ofType(own, 'AWS::SNS::Topic') as [[string, Resource]];

/**
 * What an alarm action of `stack` names, followed to its source: in the monitoring stack the topic
 * itself; elsewhere a parameter the parent fills with the monitoring stack's output of it.
 */
function actionSource(stack: Stack, action: { Ref?: string; 'Fn::GetAtt'?: [string, string] }): unknown {
  if (stack === monitoring) return action;
  // The parent names the output itself; a nested stack takes it as a parameter the parent fills.
  const nested = (stack as NestedStack).nestedStackResource;
  const passed = (
    nested ? (synth.resourceOf(nested).Properties.Parameters as Record<string, typeof action>)[action.Ref!] : action
  )!;
  const [resource, attribute] = passed['Fn::GetAtt'] ?? [];
  expect(resource, `${stack.node.id}: ${JSON.stringify(action)}`).toBe(
    synth.stack.getLogicalId(monitoring.nestedStackResource!),
  );
  return templateOf(monitoring).Outputs![attribute!.replace(/^Outputs\./, '')]!.Value;
}

describe('alarms reach someone', () => {
  it("has one encrypted topic per stage, subscribed by the stage setting's e-mail, in a stack of its own", () => {
    expect(synth.stacks.flatMap((s) => ofType(templateOf(s).Resources, 'AWS::SNS::Topic'))).toHaveLength(1);
    expect(topic.Properties.TopicName).toBe('brigade-dev-alarms');
    expect(JSON.stringify(topic.Properties.KmsMasterKeyId)).toContain('alias/aws/sns');
    const subscriptions = ofType(own, 'AWS::SNS::Subscription').map(([, s]) => s.Properties);
    expect(subscriptions).toEqual([
      expect.objectContaining({ Protocol: 'email', Endpoint: TEST_ALARM_EMAIL, TopicArn: { Ref: topicId } }),
    ]);
  });

  it('gives every alarm of every stack the topic as its alarm and OK action', () => {
    let alarms = 0;
    for (const stack of synth.stacks) {
      for (const [id, alarm] of ofType(templateOf(stack).Resources, 'AWS::CloudWatch::Alarm')) {
        alarms += 1;
        for (const actions of [alarm.Properties.AlarmActions, alarm.Properties.OKActions]) {
          expect(actions, `${stack.node.id}/${id}`).toHaveLength(1);
          expect(actionSource(stack, (actions as [{ Ref: string }])[0]), `${stack.node.id}/${id}`).toEqual({
            Ref: topicId,
          });
        }
      }
    }
    // The webhook pipeline's four, and the API-wide four.
    expect(alarms).toBeGreaterThanOrEqual(8);
  });

  it('watches the golden signals of the whole API: 5xx share, p99 latency, table throttles, authorizer throttles', () => {
    const descriptions = ofType(own, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties.AlarmDescription as string);
    for (const runbook of ['#api-5xx', '#api-latency', '#table', '#authorizer'])
      expect(
        descriptions.some((d) => d.includes(`docs/deploy.md${runbook}`)),
        runbook,
      ).toBe(true);
  });

  it('has a dashboard with the four signals for the API and for every route area', () => {
    const [[, dashboard]] = ofType(own, 'AWS::CloudWatch::Dashboard') as [[string, Resource]];
    expect(dashboard.Properties.DashboardName).toBe('brigade-dev');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    const areas = new Set(routes.map((r) => r.area));
    for (const title of ['API', ...areas]) {
      for (const signal of ['traffic', 'errors', 'latency', 'saturation'])
        expect(body, `${title}: ${signal}`).toContain(`${title}: ${signal}`);
    }
    // Each area's graphs name each of its functions.
    for (const r of routes) expect(body, r.operationId).toContain(`brigade-dev-${r.operationId}`);
  });
});

describe('the alarm e-mail setting', () => {
  const settingsOf = (context: Record<string, unknown>) => stageSettings(new App({ context }).node);

  it('is required on prod and must be an address', () => {
    expect(() => settingsOf({ stage: 'prod' })).toThrow(/alarmEmail is empty/);
    expect(() => settingsOf({ stage: 'prod', alarmEmail: 'not-an-address' })).toThrow(/not an e-mail address/);
    expect(settingsOf({ stage: 'prod', alarmEmail: 'ops@example.com' }).alarmEmail).toBe('ops@example.com');
  });

  it('may be left empty on dev: the topic is made, with no subscriber', () => {
    const small = synthesize({ routes: syntheticRoutes().slice(0, 3), context: { alarmEmail: '' } });
    const resources = small.template(small.stacks.find((s) => s.node.id === 'Monitoring')!).toJSON()
      .Resources as Record<string, Resource>;
    expect(ofType(resources, 'AWS::SNS::Topic')).toHaveLength(1);
    expect(ofType(resources, 'AWS::SNS::Subscription')).toHaveLength(0);
  });
});
