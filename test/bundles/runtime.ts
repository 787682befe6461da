/**
 * Runs a synthesized bundle as Lambda's Node.js runtime would, in this process: each function's
 * bundle is a file of its own, loaded once (a module instance per function, with its own cached
 * configuration and clients), and the process's environment is the
 * function's, exactly, while it loads and while each invocation runs: what the Lambda runtime sets,
 * the template's variables (resolved by assembly.ts), and where the AWS SDK finds DynamoDB Local.
 * Invocations run one at a time, so no function ever sees another's environment.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtinModules, createRequire, registerHooks } from 'node:module';
import type { Context } from 'aws-lambda';
import { runningFunction } from '../../bin/local/function-scope';
import type { BundledFunction, StandIns } from './assembly';

/** Where the harness runs the stage: the names the template's resources get here. */
export const HARNESS = {
  region: 'eu-north-1',
  accountId: '123456789012',
  /** The table's name here (the template's `Ref` to the table resolves to it). */
  tableName: 'brigade-dev-bundles',
  stackName: 'Brigade-dev',
};

/**
 * Where the AWS calls of the bundles are recorded (test/support/aws-call-log.ts): a file per
 * process (the global setup's catalog seed, the test's worker), checked against the roles of the
 * assembly's templates at the end of the run.
 */
export const CALL_LOG_DIR = new URL('../../.local/iam-bundles/', import.meta.url).pathname;

/** A function's name as the call log files it (its deployed name without `brigade-dev-`). */
const scopeName = (fn: BundledFunction) => fn.name.replace(/^brigade-dev-/, '');

/** A queue's URL here: the SQS client is mocked (aws-sdk-client-mock), so it is only a name. */
const queueUrlOf = (logicalId: string) =>
  `https://sqs.${HARNESS.region}.amazonaws.com/${HARNESS.accountId}/${logicalId}`;
/** A usage plan's id here: the API Gateway client is mocked. */
const usagePlanIdOf = (logicalId: string) => `plan-${logicalId}`;

export const standIns: StandIns = {
  region: HARNESS.region,
  accountId: HARNESS.accountId,
  ref(type, logicalId) {
    if (type === 'AWS::DynamoDB::Table') return HARNESS.tableName;
    if (type === 'AWS::SQS::Queue') return queueUrlOf(logicalId);
    if (type === 'AWS::ApiGateway::UsagePlan') return usagePlanIdOf(logicalId);
    if (type === 'AWS::SecretsManager::Secret')
      return `arn:aws:secretsmanager:${HARNESS.region}:${HARNESS.accountId}:secret:${logicalId}`;
    return undefined;
  },
};

/**
 * The stage's identity provider (cdk context `jwksUrl`, `jwtIssuer`, `jwtAudience`,
 * `internalOperatorIds`; empty on dev, which turns Bearer tokens off) cannot be a URL of a deployed
 * stage here: the harness stands in for it with a JWKS it serves itself. These four variables, and
 * only these, replace the template's values; the run's summary names them.
 */
export interface IdentityStandIn {
  JWKS_URL: string;
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
  INTERNAL_OPERATOR_IDS: string;
}

/** What the Lambda runtime itself puts in a function's environment (besides the template's). */
function runtimeEnvironment(fn: BundledFunction, dynamoEndpoint: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TZ: ':UTC',
    LANG: 'en_US.UTF-8',
    AWS_REGION: HARNESS.region,
    AWS_DEFAULT_REGION: HARNESS.region,
    AWS_LAMBDA_FUNCTION_NAME: fn.name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'bundles',
    LAMBDA_TASK_ROOT: fn.assetDir,
    _HANDLER: fn.handler,
    // The role's credentials (fake: DynamoDB Local takes any) and where DynamoDB is.
    AWS_ACCESS_KEY_ID: 'bundles',
    AWS_SECRET_ACCESS_KEY: 'bundles',
    AWS_SESSION_TOKEN: 'bundles',
    AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
    // DynamoDB Local on a shared machine is not DynamoDB: a deployed stage gives an attempt 2 s
    // (shared/config.ts), which a just-started JVM misses; the local stage allows 10 s for this reason.
    DYNAMODB_TIMEOUT_MS: '10000',
    // The error paths of this run are asked for; their logs would bury the results (as in npm test).
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  };
}

/**
 * Lambda extracts a function's layers under /opt; here they stay in the assembly. A variable of the
 * template that names a file under /opt (the solver routes' BRIGADE_SOLVER_MODULE) names that file
 * in the function's layer folders instead; one that names no file of its layers throws.
 */
function underLayers(fn: BundledFunction, environment: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([k, v]) => {
      if (!v.startsWith('/opt/')) return [k, v];
      const file = fn.layerDirs.map((d) => join(d, v.slice('/opt/'.length))).find((f) => existsSync(f));
      if (!file) throw new Error(`${fn.name}: ${k}=${v} names no file of its layers (${fn.layerDirs.length})`);
      return [k, file];
    }),
  );
}

/**
 * CloudFormation resolves a secret's dynamic reference (`{{resolve:secretsmanager:<arn>:SecretString:::}}`)
 * at deploy, so a function sees the secret's value; here every function that names one secret gets
 * the same stand-in value for it (the API key pepper: the authorizer and the key-writing functions agree).
 */
function secretsResolved(environment: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([k, v]) => {
      const secret = /^\{\{resolve:secretsmanager:(.+?):SecretString:::\}\}$/.exec(v)?.[1];
      return [k, secret === undefined ? v : createHash('sha256').update(`stand-in ${secret}`).digest('hex')];
    }),
  );
}

export function environmentOf(
  fn: BundledFunction,
  dynamoEndpoint: string,
  identity: IdentityStandIn,
): Record<string, string> {
  return {
    ...runtimeEnvironment(fn, dynamoEndpoint),
    ...secretsResolved(underLayers(fn, fn.environment)),
    ...identity,
  };
}

/** Runs `work` with the process's environment set to exactly `env`, then puts the previous one back. */
async function withEnvironment<T>(env: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, env);
  try {
    return await work();
  } finally {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/**
 * Node's own loader, not the test runner's: the bundle is loaded as Lambda loads it (an ES module,
 * top-level await included: a traced stage's bundle awaits its tracer at init), and its bare
 * imports (`@aws-sdk/*`) resolve from the project's node_modules, as on Lambda from the runtime's
 * (which is why the assembly must lie inside the project). The import() lives in a CommonJS file
 * that Node loads itself (native-import.cjs): Vitest rewrites every import() of the files it loads
 * into its own module runner.
 */
export const nativeImport = createRequire(import.meta.url)('./native-import.cjs') as (
  url: string,
) => Promise<Record<string, unknown>>;

type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

export interface LoadedFunction {
  fn: BundledFunction;
  env: Record<string, string>;
  handler: LambdaHandler;
  invoke(event: unknown): Promise<unknown>;
}

function lambdaContext(fn: BundledFunction): Context {
  const requestId = randomUUID();
  const deadline = Date.now() + fn.timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: fn.name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${HARNESS.region}:${HARNESS.accountId}:function:${fn.name}`,
    memoryLimitInMB: String(fn.memorySize),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${fn.name}`,
    logStreamName: 'bundles',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * The modules a bundle loads by name that the Lambda runtime does not provide. Here every bare
 * import would resolve from the project's node_modules, where a package the bundle left out is
 * found; on Lambda only Node's own modules and the runtime's AWS SDK v3 are there.
 */
function unprovidedImports(path: string): string[] {
  const code = readFileSync(path, 'utf8');
  const named = new Set<string>();
  // (a match right after a quote is text inside a string: ajv's generated code names its runtime so)
  for (const m of code.matchAll(
    /\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|\brequire\(\s*["']([^"']+)["']\s*\)/g,
  )) {
    if (!/["'`]/.test(code[m.index - 1] ?? '')) named.add((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  }
  return [...named].filter((name) => !providedByLambda(name)).sort();
}

/** Whether the Lambda runtime resolves this specifier: Node's modules, its AWS SDK v3, a relative path. */
const providedByLambda = (name: string) =>
  name.startsWith('node:') ||
  builtinModules.includes(name.split('/')[0]!) ||
  name.startsWith('@aws-sdk/') ||
  name.startsWith('.');

/** The folders of the assemblies whose files are loaded (file URLs, ending in `/`). */
const assemblies = new Set<string>();
let guarding = false;
/**
 * The same rule at run time, for what no scan of the text finds: an import computed at run time
 * (the solver's `import(BRIGADE_SOLVER_MODULE || 'highs')`). A bare specifier other than those the
 * runtime provides, resolved from a file of the assembly (a bundle or a layer), fails as on Lambda
 * instead of finding the project's node_modules; an absolute path (a layer's file) resolves.
 */
function guardImportsFrom(assemblyDir: string): void {
  assemblies.add(`${pathToFileURL(assemblyDir).href}/`);
  if (guarding) return;
  guarding = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL;
      const bare = !/^(\.|\/|[a-z]+:)/.test(specifier);
      if (parent && bare && !providedByLambda(specifier) && [...assemblies].some((a) => parent.startsWith(a)))
        throw Object.assign(
          new Error(
            `Cannot find package '${specifier}' imported from ${parent}: the Lambda runtime provides only Node's modules and @aws-sdk/*`,
          ),
          { code: 'ERR_MODULE_NOT_FOUND' },
        );
      return nextResolve(specifier, context);
    },
  });
}

/** Imports a function's bundle under its own environment and answers a way to invoke it. */
export async function loadFunction(fn: BundledFunction, env: Record<string, string>): Promise<LoadedFunction> {
  const [file, exported] = [
    fn.handler.slice(0, fn.handler.lastIndexOf('.')),
    fn.handler.slice(fn.handler.lastIndexOf('.') + 1),
  ];
  const path = ['.mjs', '.js', '.cjs'].map((ext) => join(fn.assetDir, `${file}${ext}`)).find((p) => existsSync(p));
  if (!path) throw new Error(`${fn.name}: no ${file}.mjs/.js/.cjs in ${fn.assetDir}`);
  guardImportsFrom(dirname(fn.assetDir));
  const missing = unprovidedImports(path);
  if (missing.length)
    throw new Error(
      `${fn.name}: its bundle imports ${missing.join(', ')}, which the Lambda runtime does not provide (only Node's modules and @aws-sdk/*)`,
    );
  // One module instance per asset file (each function's bundle is a folder of its own).
  const module = await withEnvironment(env, () => nativeImport(pathToFileURL(path).href));
  const handler = module[exported];
  if (typeof handler !== 'function') throw new Error(`${fn.name}: ${path} exports no function "${exported}"`);
  return {
    fn,
    env,
    handler: handler as LambdaHandler,
    // Each invocation runs as its function: the AWS calls it makes are filed under it.
    invoke: (event) =>
      runningFunction.run(scopeName(fn), () =>
        withEnvironment(env, () => (handler as LambdaHandler)(event, lambdaContext(fn))),
      ),
  };
}
