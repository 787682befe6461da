/**
 * Reading a cloud assembly on disk (`cdk synth -o <dir>`), as the bundle harness (test/bundles/)
 * and the role resolver (test/infra/iam.ts) both do: the assets its manifests list, and the
 * template file a nested stack's `TemplateURL` (or a function's `Code.S3Key`) names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** S3 object key → the assembly file or folder it is built from (every `*.assets.json` of the assembly). */
export function assetSources(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.assets.json'))) {
    const manifest = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      files?: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }>;
    };
    for (const asset of Object.values(manifest.files ?? {})) {
      for (const destination of Object.values(asset.destinations)) out.set(destination.objectKey, asset.source.path);
    }
  }
  return out;
}

/** The S3 key a `Code.S3Key` or a nested stack's `TemplateURL` names (its last path segment). */
function objectKeyOf(value: unknown, what: string): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const key = /([0-9a-f]{64}\.(?:zip|json))/.exec(text)?.[1];
  if (!key) throw new Error(`${what}: no asset object key in ${text}`);
  return key;
}

/** The assembly file of the asset a value names (`Code.S3Key`, `TemplateURL`); throws when it is not one. */
export function assetOf(sources: Map<string, string>, value: unknown, what: string): string {
  const source = sources.get(objectKeyOf(value, what));
  if (!source) throw new Error(`${what}: ${JSON.stringify(value)} is not an asset of the assembly`);
  return source;
}

/** A template of the assembly, parsed. */
export const readTemplate = <T>(dir: string, file: string): T => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
