/**
 * The tracing layer: Powertools Tracer and the X-Ray SDK under it (about 125 KB minified), built
 * at synth from the project's own pinned packages into one ES module,
 * `brigade-tracing/index.mjs`, which Lambda mounts at `/opt/brigade-tracing/index.mjs`
 * (shared/runtime/tracing.ts loads it from there). One layer version in the parent stack, attached
 * to every function only where the stage traces; the handler bundles hold none of it.
 *
 * Built by the esbuild CLI the project pins (as NodejsFunction does), on this machine: no Docker,
 * no network. Its asset hash is the hash of the built file, so it changes only when the packages
 * or the options do.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { BUNDLE_BANNER, BUNDLE_MAIN_FIELDS, BUNDLE_TARGET } from './bundling';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The layer's entry, relative to the project root (it only re-exports the Tracer and its Middy step). */
const TRACING_LAYER_ENTRY = 'shared/runtime/tracing-layer/index.ts';

/** The module's path inside the layer; Lambda extracts layers under /opt. */
export const TRACING_LAYER_FILE = 'brigade-tracing/index.mjs';

/** esbuild's arguments for the layer: the handlers' target, fields and banner (the X-Ray SDK is CommonJS), minified, nothing external but Node's own. */
const tracingLayerEsbuildArgs = (outfile: string): string[] => [
  TRACING_LAYER_ENTRY,
  '--bundle',
  '--platform=node',
  '--format=esm',
  `--target=${BUNDLE_TARGET}`,
  `--main-fields=${BUNDLE_MAIN_FIELDS.join(',')}`,
  '--minify',
  `--banner:js=${BUNDLE_BANNER}`,
  '--log-level=warning',
  `--outfile=${outfile}`,
];

/** Builds the layer's content into `outputDir` (`<outputDir>/brigade-tracing/index.mjs`); throws if esbuild fails. */
export function buildTracingLayer(outputDir: string): string {
  const outfile = join(outputDir, TRACING_LAYER_FILE);
  mkdirSync(join(outputDir, 'brigade-tracing'), { recursive: true });
  const run = spawnSync(join(projectRoot, 'node_modules', '.bin', 'esbuild'), tracingLayerEsbuildArgs(outfile), {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  if (run.status !== 0)
    throw new Error(
      `building the tracing layer failed (${run.error?.message ?? `esbuild exited ${run.status}`}): ${run.stderr}`,
    );
  return outfile;
}

const LAYER_ID = 'TracingLayer';

/** The stack's tracing layer, created in the outermost stack the first time a function asks for it. */
export function tracingLayer(scope: Construct): lambda.ILayerVersion {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  const existing = stack.node.tryFindChild(LAYER_ID) as lambda.LayerVersion | undefined;
  if (existing) return existing;
  return new lambda.LayerVersion(stack, LAYER_ID, {
    description: 'Brigade: Powertools Tracer and the X-Ray SDK, one ES module (/opt/brigade-tracing/index.mjs)',
    compatibleRuntimes: [lambda.Runtime.NODEJS_22_X],
    compatibleArchitectures: [lambda.Architecture.ARM_64],
    code: lambda.Code.fromAsset(join(projectRoot, 'shared/runtime/tracing-layer'), {
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        // Never used: local bundling either builds the layer or throws.
        image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
        local: {
          tryBundle(outputDir) {
            buildTracingLayer(outputDir);
            return true;
          },
        },
      },
    }),
  });
}
