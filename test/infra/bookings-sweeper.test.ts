/** The no-show sweeper in the stage: a function on a 5-minute schedule, allowed only item reads and writes on the table. */
import { describe, expect, it } from 'vitest';
import { synthesize, type TemplateResource } from './synth';

type Resource = TemplateResource;

const synth = synthesize();
const resources = Object.entries(synth.template(synth.stack).toJSON().Resources as Record<string, Resource>);
const sweeper = resources.find(
  ([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.FunctionName === 'brigade-dev-no-show-sweeper',
);

describe('no-show sweeper', () => {
  it('runs functions/sweeper/no-shows.ts every 5 minutes', () => {
    expect(sweeper).toBeDefined();
    const [id] = sweeper!;
    const [, rule] = resources.find(
      ([, r]) => r.Type === 'AWS::Events::Rule' && JSON.stringify(r.Properties.Targets).includes(id),
    )!;
    expect(rule.Properties).toMatchObject({ ScheduleExpression: 'rate(5 minutes)', State: 'ENABLED' });
    expect(
      resources.some(
        ([, r]) =>
          r.Type === 'AWS::Lambda::Permission' &&
          JSON.stringify(r.Properties.FunctionName).includes(id) &&
          r.Properties.Principal === 'events.amazonaws.com',
      ),
    ).toBe(true);
  });

  it('may query, read and write items of the table only (no Scan, no index)', () => {
    const role = sweeper![1].Properties.Role['Fn::GetAtt'][0] as string;
    const [, policy] = resources.find(
      ([, r]) =>
        r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles) === JSON.stringify([{ Ref: role }]),
    )!;
    const statements = policy.Properties.PolicyDocument.Statement as {
      Effect: string;
      Action: string | string[];
      Resource: unknown;
    }[];
    const dynamo = statements.filter(
      (s) => s.Effect === 'Allow' && [s.Action].flat().some((a) => a.startsWith('dynamodb:')),
    );
    expect([...new Set(dynamo.flatMap((s) => [s.Action].flat()))].sort()).toEqual([
      'dynamodb:ConditionCheckItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    for (const s of dynamo) expect(JSON.stringify(s.Resource)).not.toContain('index');
    // Which families it may touch: access.test.ts.
  });
});
