/**
 * How every Brigade function is bundled (esbuild), in one place: the CDK functions
 * (infra/handler-function.ts) and the bench's bundle and init measurements (bench §3) read it, so
 * what is measured is what ships.
 */

/** Some dependencies are CommonJS and call require(), which an ES module does not have. */
export const BUNDLE_BANNER =
  "import { createRequire as __brigadeRequire } from 'node:module'; const require = __brigadeRequire(import.meta.url);";

/** The Node.js 22 runtime ships AWS SDK v3: the bundles leave it out. */
export const BUNDLE_EXTERNALS = ['@aws-sdk/*'];

export const BUNDLE_TARGET = 'node22';

export const BUNDLE_MAIN_FIELDS = ['module', 'main'];

/**
 * Imports replaced by a file of ours, relative to the project root (esbuild resolves an alias's
 * target from its working directory, the project root for both CDK and the bench).
 * `node:http`: see shared/runtime/node-http.ts (keeps Node's undici out of every cold start).
 */
export const BUNDLE_ALIASES: Record<string, string> = { 'node:http': './shared/runtime/node-http.ts' };

/** The same, as esbuild's build options, for the bench and the tests that bundle in-process. */
export const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: BUNDLE_TARGET,
  mainFields: BUNDLE_MAIN_FIELDS,
  minify: true,
  external: BUNDLE_EXTERNALS,
  alias: BUNDLE_ALIASES,
  banner: { js: BUNDLE_BANNER },
} as const;
