/**
 * Every function's logs, CDK's own providers included, go to a log group of the template with the
 * stage's retention; and no log group keeps a fixed name past the stack (prod retains its log
 * groups: a fixed name would make creating the stage again fail with "already exists").
 */
import { describe, expect, it } from 'vitest';
import { synthesize, type TemplateResource } from './synth';

type Resource = TemplateResource;

const RETENTION = { dev: 14, prod: 90 } as const;

describe.each(['dev', 'prod'] as const)('logs of the %s stage', (stage) => {
  const synth = synthesize({ context: { stage } });
  const stacks = synth.stacks.map((s) => ({
    name: s.node.path,
    resources: synth.template(s).toJSON().Resources as Record<string, Resource>,
  }));

  it('send every Lambda function of every stack, CDK providers included, to a log group with a retention', () => {
    let functions = 0;
    for (const { name, resources } of stacks) {
      for (const [id, fn] of Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function')) {
        functions++;
        const ref = fn.Properties.LoggingConfig?.LogGroup?.Ref as string | undefined;
        expect(ref, `${name}/${id} logs to a log group of its stack`).toBeDefined();
        expect(resources[ref!]?.Type, `${name}/${id}`).toBe('AWS::Logs::LogGroup');
        expect(resources[ref!]!.Properties.RetentionInDays, `${name}/${id}`).toBe(RETENTION[stage]);
      }
    }
    // the operations, the authorizer, the fallback, the pipeline, the sweeper, the seed and the providers
    expect(functions).toBeGreaterThan(80);
    const providers = stacks.flatMap(({ resources }) =>
      Object.entries(resources).filter(
        ([id, r]) =>
          r.Type === 'AWS::Lambda::Function' && /CustomResourceProvider|AWS679f53fac002430cb0da5b7982bd2287/.test(id),
      ),
    );
    expect(
      providers.length,
      "the trigger's provider and the usage plans' custom-resource function",
    ).toBeGreaterThanOrEqual(2);
  });

  it(`${stage === 'prod' ? 'retains' : 'destroys'} log groups with the stack, none of them under a fixed name`, () => {
    for (const { name, resources } of stacks) {
      for (const [id, group] of Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Logs::LogGroup')) {
        expect(group.DeletionPolicy, `${name}/${id}`).toBe(stage === 'prod' ? 'Retain' : 'Delete');
        expect(typeof group.Properties.LogGroupName, `${name}/${id} has no literal name`).not.toBe('string');
      }
    }
  });

  it("name the functions' log groups after the function and the stack's creation, under the stage's prefix", () => {
    const [, group] = Object.entries(
      synth.template(synth.stack.areaStacks[0]!).toJSON().Resources as Record<string, Resource>,
    ).find(([, r]) => r.Type === 'AWS::Logs::LogGroup' && r.Properties.LogGroupName)!;
    const [, parts] = group.Properties.LogGroupName['Fn::Join'] as [string, unknown[]];
    expect(parts[0]).toMatch(new RegExp(`^/aws/lambda/brigade-${stage}-[A-Za-z]+-$`));
    expect(JSON.stringify(parts[1])).toContain('AWS::StackId');
  });
});
