/**
 * The functions of a synthesized cloud assembly (`cdk synth` output), as CloudFormation would
 * create them: for every `AWS::Lambda::Function` of the stage's template and its nested templates,
 * the folder of its bundle (from `Code.S3Key` through the assembly's `*.assets.json`), its handler
 * its layers' asset folders (a `Layers` entry followed through the nested stacks' parameters to the
 * layer's `Content.S3Key`), and its environment with every intrinsic resolved to the harness's
 * stand-ins (`Stand-ins`). A
 * value the resolver does not know (a new intrinsic, a reference to a resource the harness has no
 * stand-in for) throws, naming the function and the variable: nothing is defaulted.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { assetOf, assetSources, readTemplate } from '../support/cloud-assembly';

/** The properties this reads of a nested stack (TemplateURL, Parameters) and of a function; the rest unread. */
interface Properties {
  TemplateURL?: unknown;
  Parameters?: Record<string, unknown>;
  FunctionName?: unknown;
  Code?: { S3Key?: unknown };
  Content?: { S3Key?: unknown };
  Layers?: unknown[];
  Environment?: { Variables?: Record<string, unknown> };
  [name: string]: unknown;
}

type Template = {
  Parameters?: Record<string, unknown>;
  Resources: Record<string, { Type: string; Properties?: Properties; Metadata?: Record<string, unknown> }>;
};

export interface BundledFunction {
  /** The logical id in its template. */
  logicalId: string;
  /** The template file it is declared in. */
  template: string;
  /** `FunctionName`, or the logical id where CloudFormation would name it. */
  name: string;
  /** The construct path (`aws:cdk:path`): says whose function it is. */
  path: string;
  /** The asset folder (absolute) holding its bundle. */
  assetDir: string;
  /** Its layers' asset folders (absolute), in its `Layers` order: what Lambda extracts under /opt. */
  layerDirs: string[];
  /** `Handler`: `<file>.<export>`. */
  handler: string;
  runtime: string;
  timeoutSeconds: number;
  memorySize: number;
  /** The environment variables the template gives it, resolved. */
  environment: Record<string, string>;
}

/** What the harness puts where the template names a resource that exists only on AWS. */
export interface StandIns {
  region: string;
  accountId: string;
  /** The value of a `Ref` to a resource of this type, or undefined when the harness has none. */
  ref(type: string, logicalId: string): string | undefined;
}

class Unresolvable extends Error {}

interface Scope {
  file: string;
  template: Template;
  /** The scope that passes this nested stack its parameters, and the parameter values it passes. */
  parent?: { scope: Scope; parameters: Record<string, unknown> };
}

function resolve(value: unknown, scope: Scope, standIns: StandIns): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 1) {
      const [fn, arg] = entries[0]!;
      if (fn === 'Ref') return ref(String(arg), scope, standIns);
      if (fn === 'Fn::Join' && Array.isArray(arg) && typeof arg[0] === 'string' && Array.isArray(arg[1])) {
        return (arg[1] as unknown[]).map((part) => resolve(part, scope, standIns)).join(arg[0]);
      }
    }
  }
  throw new Unresolvable(`${JSON.stringify(value)} (in ${scope.file}): no stand-in for this intrinsic`);
}

function ref(name: string, scope: Scope, standIns: StandIns): string {
  if (name === 'AWS::Region') return standIns.region;
  if (name === 'AWS::AccountId') return standIns.accountId;
  if (name === 'AWS::Partition') return 'aws';
  if (scope.template.Parameters && name in scope.template.Parameters) {
    if (!scope.parent || !(name in scope.parent.parameters))
      throw new Unresolvable(`parameter ${name} of ${scope.file} is passed no value`);
    return resolve(scope.parent.parameters[name], scope.parent.scope, standIns);
  }
  const resource = scope.template.Resources[name];
  if (!resource) throw new Unresolvable(`Ref ${name} names nothing in ${scope.file}`);
  const out = standIns.ref(resource.Type, name);
  if (out === undefined)
    throw new Unresolvable(
      `Ref ${name} (${resource.Type}, in ${scope.file}): the harness has no stand-in for this resource type`,
    );
  return out;
}

/** The asset folder of a layer a function names: its `Ref` followed through parameters to the `AWS::Lambda::LayerVersion`. */
function layerFolder(value: unknown, scope: Scope, sources: Map<string, string>): string {
  const name = value && typeof value === 'object' && 'Ref' in value ? String(value.Ref) : undefined;
  if (name === undefined) throw new Unresolvable(`layer ${JSON.stringify(value)} (in ${scope.file}): not a Ref`);
  if (scope.template.Parameters && name in scope.template.Parameters) {
    if (!scope.parent || !(name in scope.parent.parameters))
      throw new Unresolvable(`parameter ${name} of ${scope.file} is passed no value`);
    return layerFolder(scope.parent.parameters[name], scope.parent.scope, sources);
  }
  const resource = scope.template.Resources[name];
  if (resource?.Type !== 'AWS::Lambda::LayerVersion')
    throw new Unresolvable(`layer Ref ${name} (in ${scope.file}) names no AWS::Lambda::LayerVersion`);
  return assetOf(sources, resource.Properties?.Content?.S3Key, `layer ${name}: its Content.S3Key`);
}

export interface Assembly {
  dir: string;
  /** Every function of the stage's templates; `error` set where one could not be read or resolved. */
  functions: (BundledFunction | { logicalId: string; template: string; name: string; path: string; error: string })[];
}

/** Reads the stage's templates (`<stack>.template.json` and the nested ones it names) from an assembly folder. */
export function readAssembly(dir: string, stackName: string, standIns: StandIns): Assembly {
  const sources = assetSources(dir);
  const functions: Assembly['functions'] = [];
  const visit = (scope: Scope) => {
    for (const [logicalId, resource] of Object.entries(scope.template.Resources)) {
      const p = resource.Properties ?? {};
      if (resource.Type === 'AWS::CloudFormation::Stack') {
        const file = assetOf(sources, p.TemplateURL, `${scope.file} ${logicalId}: its template`);
        visit({ file, template: readTemplate<Template>(dir, file), parent: { scope, parameters: p.Parameters ?? {} } });
        continue;
      }
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const name = typeof p.FunctionName === 'string' ? p.FunctionName : logicalId;
      const path = String(resource.Metadata?.['aws:cdk:path'] ?? logicalId);
      try {
        const folder = assetOf(sources, p.Code?.S3Key, 'its Code.S3Key');
        const environment: Record<string, string> = {};
        for (const [k, v] of Object.entries(p.Environment?.Variables ?? {})) {
          try {
            environment[k] = resolve(v, scope, standIns);
          } catch (err) {
            if (err instanceof Unresolvable) throw new Error(`environment variable ${k}: ${err.message}`);
            throw err;
          }
        }
        const assetDir = join(dir, folder);
        if (!existsSync(assetDir)) throw new Error(`its asset folder ${assetDir} is missing`);
        const layerDirs = (p.Layers ?? []).map((layer) => join(dir, layerFolder(layer, scope, sources)));
        for (const layerDir of layerDirs)
          if (!existsSync(layerDir)) throw new Error(`its layer's asset folder ${layerDir} is missing`);
        functions.push({
          logicalId,
          template: scope.file,
          name,
          path,
          assetDir,
          layerDirs,
          handler: String(p.Handler),
          runtime: String(p.Runtime),
          timeoutSeconds: Number(p.Timeout ?? 3),
          memorySize: Number(p.MemorySize ?? 128),
          environment,
        });
      } catch (err) {
        functions.push({ logicalId, template: scope.file, name, path, error: (err as Error).message });
      }
    }
  };
  const file = `${stackName}.template.json`;
  visit({ file, template: readTemplate<Template>(dir, file) });
  return { dir, functions };
}
