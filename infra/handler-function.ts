/**
 * One Lambda function built from a handler file, with the bundling every Brigade function shares
 * and its own log group (explicit, so retention needs no LogRetention custom resource).
 */
import { type CfnResource, Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { BUNDLE_ALIASES, BUNDLE_BANNER, BUNDLE_EXTERNALS, BUNDLE_MAIN_FIELDS, BUNDLE_TARGET } from './bundling';
import type { Durability } from './settings';
import { SOLVER_LAYER_MODULE, solverLayer } from './solver-layer';
import { tracingLayer } from './tracing-layer';

/** Handler paths in the route table are relative to the project root. */
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

const bundling: BundlingOptions = {
  format: OutputFormat.ESM,
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  target: BUNDLE_TARGET,
  mainFields: BUNDLE_MAIN_FIELDS,
  banner: BUNDLE_BANNER,
  externalModules: BUNDLE_EXTERNALS,
  esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
};

const MAX_FUNCTION_NAME = 64;

/** The deployed name of an operation's function (the dashboard finds its metrics by it). */
export const operationFunctionName = (stage: string, operationId: string) => `brigade-${stage}-${operationId}`;

/**
 * Eight hex digits that differ each time CloudFormation creates the stack: the first group of the
 * UUID at the end of its stack id (`arn:…:stack/<name>/<uuid>`).
 */
const stackCreationId = (scope: Construct) =>
  Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', Stack.of(scope).stackId))));

/**
 * The log group of a function: `/aws/lambda/<function name>-<stack creation id>`. Production
 * retains its log groups when the stack goes; a fixed name would then make creating the stage
 * again fail ("already exists"). With the creation id, a new stack writes to new groups and the
 * old ones stay readable beside them. Every name still starts with `/aws/lambda/brigade-<stage>-`,
 * the prefix the roles' log grants and the runbooks' queries name (docs/deploy.md).
 */
const functionLogGroupName = (scope: Construct, functionName: string) =>
  Fn.join('', [`/aws/lambda/${functionName}-`, stackCreationId(scope)]);

/**
 * Gives a function CDK makes for itself (a custom-resource provider, such as the triggers' one) a
 * log group with the stage's retention: such providers take no log group of their own, and Lambda
 * would otherwise create `/aws/lambda/<name>` that keeps logs forever. Their roles carry AWS's basic
 * execution policy, which lets them write to any log group.
 */
export function giveLogGroup(providerFunction: CfnResource, durability: Durability): logs.LogGroup {
  if (providerFunction.cfnResourceType !== 'AWS::Lambda::Function')
    throw new Error(`${providerFunction.node.path} is not a Lambda function`);
  const logGroup = new logs.LogGroup(providerFunction.node.scope as Construct, `${providerFunction.node.id}Logs`, {
    retention: durability.logRetention,
    removalPolicy: durability.removalPolicy,
  });
  providerFunction.addPropertyOverride('LoggingConfig', { LogGroup: logGroup.logGroupName });
  return logGroup;
}

export interface HandlerFunctionProps {
  /** Handler file relative to the project root; it exports `handler`. */
  entry: string;
  functionName: string;
  role: iam.IRole;
  environment: Record<string, string>;
  durability: Durability;
  memorySize?: number;
  /** Default 10 s (HTTP handlers); queue consumers set their own. */
  timeout?: Duration;
  /** Reserved concurrency: the function's own share of the account's, and its ceiling. */
  reservedConcurrency?: number | undefined;
  /** Loads the re-seating solver (the route's `solver`): the solver layer, and BRIGADE_SOLVER_MODULE naming its module. */
  solver?: boolean;
}

export class HandlerFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);
    if (props.functionName.length > MAX_FUNCTION_NAME) {
      throw new Error(`Lambda function name ${props.functionName} is longer than ${MAX_FUNCTION_NAME} characters`);
    }
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: functionLogGroupName(this, props.functionName),
      retention: props.durability.logRetention,
      removalPolicy: props.durability.removalPolicy,
    });
    const traces = props.environment.POWERTOOLS_TRACE_ENABLED === 'true';
    const layers = [
      // The Tracer and the X-Ray SDK, which shared/runtime/tracing.ts loads only when tracing is on.
      ...(traces ? [tracingLayer(this)] : []),
      // HiGHS, which shared/domain/bookings/solver.ts loads from BRIGADE_SOLVER_MODULE on first use.
      ...(props.solver ? [solverLayer(this)] : []),
    ];
    this.function = new NodejsFunction(this, 'Function', {
      entry: `${projectRoot}${props.entry}`,
      handler: 'handler',
      projectRoot,
      depsLockFilePath: `${projectRoot}package-lock.json`,
      functionName: props.functionName,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      ...(props.reservedConcurrency !== undefined && { reservedConcurrentExecutions: props.reservedConcurrency }),
      role: props.role,
      // The stage's setting reaches every function through its environment (brigade-stack.ts).
      tracing: traces ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      ...(layers.length > 0 && { layers }),
      logGroup: this.logGroup,
      environment: {
        ...props.environment,
        ...(props.solver && { BRIGADE_SOLVER_MODULE: SOLVER_LAYER_MODULE }),
      },
      bundling,
    });
    if (traces) {
      Validations.of(props.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray PutTraceSegments and PutTelemetryRecords take no resource-level permissions: AWS documents "*" as their only resource.',
      });
    }
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        "Node.js 22 is the project's pinned toolchain (package.json engines, esbuild target node22); the runtime moves with it, not ahead of it.",
    });
  }
}
