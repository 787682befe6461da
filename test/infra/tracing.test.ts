/**
 * X-Ray tracing as a stage setting (infra/settings.ts `tracing`): on prod by default, off on dev;
 * every function of the product traced actively when on, with the grants X-Ray needs and the
 * Powertools settings that keep answers and errors out of traces; the REST stage traced alike.
 */
import { describe, expect, it } from 'vitest';
import { synthesize, type TemplateResource } from './synth';

type Resource = TemplateResource;

/** CDK's own functions (custom-resource providers) run no product code: not traced. */
const isProvider = (id: string) => /CustomResourceProvider|AWS679f53fac002430cb0da5b7982bd2287/.test(id);

function tracingOf(context: Record<string, unknown>) {
  const synth = synthesize({ context });
  const stacks = synth.stacks.map((s) => synth.template(s).toJSON().Resources as Record<string, Resource>);
  const functions = stacks.flatMap((resources) =>
    Object.entries(resources)
      .filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && !isProvider(id))
      .map(([, fn]) => ({ fn, resources })),
  );
  const stage = stacks.flatMap((r) => Object.values(r)).find((r) => r.Type === 'AWS::ApiGateway::Stage')!;
  return { functions, stage, stacks };
}

/** The statements of every policy attached to the function's role, in its stack. */
function roleStatements(
  fn: Resource,
  resources: Record<string, Resource>,
): { Action: string | string[]; Resource: unknown }[] {
  const roleId = fn.Properties.Role['Fn::GetAtt']?.[0] as string;
  return Object.values(resources)
    .filter(
      (r) =>
        r.Type === 'AWS::IAM::Policy' && (r.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === roleId),
    )
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}

const allowsXRay = (statements: { Action: string | string[]; Resource: unknown }[]) =>
  statements.some(
    (s) =>
      ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'].every((a) => [s.Action].flat().includes(a)) &&
      s.Resource === '*',
  );

describe.each([
  ['prod', {}, true],
  ['dev', {}, false],
  ['dev', { tracing: 'true' }, true],
  ['prod', { tracing: 'false' }, false],
] as const)('a %s stage with %j', (stage, extra, traced) => {
  const { functions, stage: restStage, stacks } = tracingOf({ stage, ...extra });

  it(`${traced ? 'traces' : 'does not trace'} every function of the product (TracingConfig ${traced ? 'Active' : 'absent or PassThrough'})`, () => {
    expect(functions.length).toBeGreaterThan(80);
    for (const { fn } of functions) {
      if (traced) expect(fn.Properties.TracingConfig, fn.Properties.FunctionName).toEqual({ Mode: 'Active' });
      else expect(fn.Properties.TracingConfig?.Mode, fn.Properties.FunctionName).not.toBe('Active');
      expect(fn.Properties.Environment.Variables).toMatchObject({
        POWERTOOLS_TRACE_ENABLED: String(traced),
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
        POWERTOOLS_TRACER_CAPTURE_ERROR: 'false',
      });
    }
  });

  it(`${traced ? 'attaches the tracing layer to every function' : 'attaches the tracing layer to no function'}`, () => {
    const layers = stacks.flatMap((resources) =>
      Object.entries(resources).filter(
        ([id, r]) => r.Type === 'AWS::Lambda::LayerVersion' && id.startsWith('TracingLayer'),
      ),
    );
    // One layer, in the parent stack; every function (in the nested stacks) refers to it. (The
    // solver layer is the other one, on the solver routes' functions only: solver.test.ts.)
    expect(layers.length).toBe(traced ? 1 : 0);
    if (traced) expect(Object.keys(stacks[0]!)).toContain(layers[0]![0]);
    for (const { fn } of functions) {
      const others = 'BRIGADE_SOLVER_MODULE' in fn.Properties.Environment.Variables ? 1 : 0;
      expect(fn.Properties.Layers?.length ?? 0, fn.Properties.FunctionName).toBe((traced ? 1 : 0) + others);
    }
    if (traced) expect(layers[0]![1].Properties.CompatibleRuntimes).toEqual(['nodejs22.x']);
  });

  it(`${traced ? 'lets every traced function' : 'lets no function'} send segments to X-Ray`, () => {
    for (const { fn, resources } of functions)
      expect(allowsXRay(roleStatements(fn, resources)), fn.Properties.FunctionName).toBe(traced);
  });

  it(`${traced ? 'traces' : 'does not trace'} the REST stage`, () => {
    expect(restStage.Properties.TracingEnabled).toBe(traced);
  });
});

it('refuses a tracing setting that is not true or false', () => {
  expect(() => synthesize({ context: { tracing: 'yes' } })).toThrow(/tracing is true or false/);
});
