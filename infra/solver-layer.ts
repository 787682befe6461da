/**
 * The solver layer: HiGHS compiled to WebAssembly (the `highs` package: `build/highs.mjs`, about
 * 168 KB, and `build/highs.wasm`, about 3.5 MB), which re-seating loads on first use
 * (shared/domain/bookings/solver.ts). Far too large for a handler bundle, so it ships once, in a
 * Lambda layer of our own: `brigade-solver/highs.mjs` and `brigade-solver/highs.wasm` (the module
 * finds the wasm beside itself), with the package's license text, `brigade-solver/LICENSE` (MIT).
 * One layer version in the parent stack, attached only to the functions of the routes flagged
 * `solver` (shared/routes/route.ts), whose environment names the module (SOLVER_LAYER_MODULE).
 *
 * Built at synth on this machine from the installed, locked package (copied, as the tracing layer
 * is bundled: CDK local bundling, no Docker, no network). Its asset hash is the hash of the
 * copied files, so the layer changes only when the package does.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The installed package the layer is made of. */
const HIGHS_PACKAGE = join(projectRoot, 'node_modules', 'highs');

/** The layer's folder; Lambda extracts layers under /opt. */
const SOLVER_LAYER_DIR = 'brigade-solver';

/** What the layer holds, each from its file in the package: the module, its wasm, the license text. */
const SOLVER_LAYER_FILES: readonly { from: string; to: string }[] = [
  { from: 'build/highs.mjs', to: 'highs.mjs' },
  { from: 'build/highs.wasm', to: 'highs.wasm' },
  { from: 'LICENSE', to: 'LICENSE' },
];

/** Where Lambda mounts the layer's module: the functions' BRIGADE_SOLVER_MODULE. */
export const SOLVER_LAYER_MODULE = `/opt/${SOLVER_LAYER_DIR}/highs.mjs`;

/** Builds the layer's content into `outputDir` (`<outputDir>/brigade-solver/…`); throws if the package lacks a file. */
export function buildSolverLayer(outputDir: string): string[] {
  const dir = join(outputDir, SOLVER_LAYER_DIR);
  mkdirSync(dir, { recursive: true });
  return SOLVER_LAYER_FILES.map(({ from, to }) => {
    const source = join(HIGHS_PACKAGE, from);
    if (!existsSync(source))
      throw new Error(`building the solver layer failed: ${source} is missing (is the highs package installed?)`);
    copyFileSync(source, join(dir, to));
    return `${SOLVER_LAYER_DIR}/${to}`;
  });
}

const LAYER_ID = 'SolverLayer';

/** The stack's solver layer, created in the outermost stack the first time a function asks for it. */
export function solverLayer(scope: Construct): lambda.ILayerVersion {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  const existing = stack.node.tryFindChild(LAYER_ID) as lambda.LayerVersion | undefined;
  if (existing) return existing;
  return new lambda.LayerVersion(stack, LAYER_ID, {
    description: `Brigade: HiGHS (the highs package, WebAssembly) for re-seating (${SOLVER_LAYER_MODULE})`,
    compatibleRuntimes: [lambda.Runtime.NODEJS_22_X],
    compatibleArchitectures: [lambda.Architecture.ARM_64],
    license: 'MIT',
    code: lambda.Code.fromAsset(HIGHS_PACKAGE, {
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        // Never used: local bundling either builds the layer or throws.
        image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
        local: {
          tryBundle(outputDir) {
            buildSolverLayer(outputDir);
            return true;
          },
        },
      },
    }),
  });
}
