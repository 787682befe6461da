/**
 * The solver layer (infra/solver-layer.ts): HiGHS ships once, in a layer of the parent stack,
 * attached with BRIGADE_SOLVER_MODULE to exactly the functions of the routes flagged `solver`
 * (shared/routes/route.ts), on every stage; and the layer's asset, built at synth, holds the
 * package's module, its wasm and its license text.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, type CfnElement, type NestedStack, Stack } from 'aws-cdk-lib';
import { describe, expect, inject, it } from 'vitest';
import { operationFunctionName } from '../../infra/handler-function';
import { SOLVER_LAYER_MODULE, solverLayer } from '../../infra/solver-layer';
import { routes, type Route } from '../../shared/routes';
import { assetOf, assetSources } from '../support/cloud-assembly';
import { synthesize, syntheticRoutes, type Synthesized, type TemplateResource } from './synth';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every function of the app (product and CDK's own), with the parent-stack logical ids of its layers. */
function functionsWithLayers(synth: Synthesized) {
  return synth.stacks.flatMap((stack) => {
    const resources = synth.template(stack).toJSON().Resources as Record<string, TemplateResource>;
    // In a nested stack a layer's ARN arrives as a parameter, which the parent passes as a Ref to the layer.
    const passed = stack.nestedStackParent
      ? ((synth.resourceOf((stack as NestedStack).nestedStackResource!).Properties.Parameters ?? {}) as Record<
          string,
          { Ref?: string }
        >)
      : {};
    return Object.entries(resources)
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
      .map(([id, fn]) => ({
        name: String(fn.Properties.FunctionName ?? id),
        environment: (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>,
        memory: fn.Properties.MemorySize as number | undefined,
        layers: ((fn.Properties.Layers ?? []) as { Ref: string }[]).map((l) => passed[l.Ref]?.Ref ?? l.Ref),
      }));
  });
}

const layerResources = (synth: Synthesized) =>
  synth.stacks.flatMap((s) =>
    Object.entries(synth.template(s).toJSON().Resources as Record<string, TemplateResource>)
      .filter(([, r]) => r.Type === 'AWS::Lambda::LayerVersion')
      .map(([id, r]) => ({ id, stack: s, resource: r })),
  );

describe.each([
  ['dev', false],
  ['prod', true],
] as const)('the %s stage', (stage, traced) => {
  const synth = synthesize({ context: { stage } });
  const layer = synth.stack.node.tryFindChild('SolverLayer');
  const layerId = layer && synth.stack.getLogicalId(layer.node.defaultChild as CfnElement);
  const functions = functionsWithLayers(synth);
  const solverRoutes = (routes as readonly Route[]).filter((r) => r.solver).map((r) => r.operationId);

  it('flags exactly the operations that load the solver: the creates, changes and availabilities (staff and online), offerWaitlistSpot', () => {
    expect(solverRoutes.sort()).toEqual([
      'changeBookingByCode',
      'createBooking',
      'createOnlineBooking',
      'getAvailability',
      'getOnlineAvailability',
      'offerWaitlistSpot',
      'updateBooking',
    ]);
  });

  it('has one solver layer, in the parent stack: Node.js 22 on arm64, MIT (the package license)', () => {
    expect(layerId).toBeDefined();
    const layers = layerResources(synth);
    // The tracing layer beside it where the stage traces.
    expect(layers).toHaveLength(traced ? 2 : 1);
    const solver = layers.filter((l) => l.id === layerId);
    expect(solver).toHaveLength(1);
    expect(solver[0]!.stack).toBe(synth.stack);
    expect(solver[0]!.resource.Properties).toMatchObject({
      CompatibleRuntimes: ['nodejs22.x'],
      CompatibleArchitectures: ['arm64'],
      LicenseInfo: 'MIT',
    });
  });

  it("attaches the layer and sets BRIGADE_SOLVER_MODULE on the solver routes' functions, and on no other function", () => {
    const expected = solverRoutes.map((id) => operationFunctionName(stage, id)).sort();
    expect(
      functions
        .filter((f) => f.layers.includes(layerId!))
        .map((f) => f.name)
        .sort(),
    ).toEqual(expected);
    expect(
      functions
        .filter((f) => 'BRIGADE_SOLVER_MODULE' in f.environment)
        .map((f) => f.name)
        .sort(),
    ).toEqual(expected);
    for (const f of functions.filter((x) => expected.includes(x.name))) {
      expect(f.environment.BRIGADE_SOLVER_MODULE).toBe('/opt/brigade-solver/highs.mjs');
      // HiGHS's wasm memory stays far below it (docs/infra.md, "The solver layer").
      expect(f.memory).toBe(512);
      expect(f.layers).toHaveLength(traced ? 2 : 1);
    }
    expect(SOLVER_LAYER_MODULE).toBe('/opt/brigade-solver/highs.mjs');
  });
});

it('makes no solver layer for a route table without solver routes', () => {
  const synth = synthesize({ routes: syntheticRoutes() });
  expect(synth.stack.node.tryFindChild('SolverLayer')).toBeUndefined();
  expect(functionsWithLayers(synth).filter((f) => 'BRIGADE_SOLVER_MODULE' in f.environment)).toEqual([]);
});

/** Synthesizes a stack holding only the solver layer, with bundling (as `cdk synth` builds it): its asset folder and S3 key. */
function builtLayer(): { folder: string; key: string } {
  const outdir = mkdtempSync(join(inject('synthDir'), 'solver-layer-'));
  const app = new App({ outdir });
  const stack = new Stack(app, 'SolverLayerOnly');
  const layer = solverLayer(stack);
  app.synth();
  const resources = JSON.parse(readFileSync(join(outdir, 'SolverLayerOnly.template.json'), 'utf8')) as {
    Resources: Record<string, TemplateResource>;
  };
  const key = resources.Resources[stack.getLogicalId(layer.node.defaultChild as CfnElement)]!.Properties.Content
    .S3Key as string;
  return { folder: join(outdir, assetOf(assetSources(outdir), key, "the layer's Content.S3Key")), key };
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();

describe("the solver layer's asset, as the synth builds it", () => {
  const first = builtLayer();

  it("holds brigade-solver/highs.mjs and highs.wasm, the package's own bytes, and its license text", () => {
    expect(filesUnder(first.folder)).toEqual([
      'brigade-solver/LICENSE',
      'brigade-solver/highs.mjs',
      'brigade-solver/highs.wasm',
    ]);
    const pkg = join(root, 'node_modules', 'highs');
    for (const [file, from] of [
      ['highs.mjs', 'build/highs.mjs'],
      ['highs.wasm', 'build/highs.wasm'],
      ['LICENSE', 'LICENSE'],
    ] as const)
      expect(readFileSync(join(first.folder, 'brigade-solver', file)).equals(readFileSync(join(pkg, from))), file).toBe(
        true,
      );
    expect(readFileSync(join(first.folder, 'brigade-solver', 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    // The module finds its wasm beside itself.
    expect(readFileSync(join(first.folder, 'brigade-solver', 'highs.mjs'), 'utf8')).toContain(
      'new URL("highs.wasm",import.meta.url)',
    );
  });

  it('is hashed by its content: a second synth gives the same asset key', () => {
    expect(builtLayer().key).toBe(first.key);
  });
});
