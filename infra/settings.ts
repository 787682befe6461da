/**
 * What differs between deployed stages, read from CDK context (`-c stage=prod`, cdk.json).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import type { Stage } from '../shared/config';

/** The stages CDK deploys; `local` runs on one machine (bin/local.ts) and never here. */
export type DeployStage = Exclude<Stage, 'local'>;
const deployStages: readonly DeployStage[] = ['dev', 'prod'];

export interface StageSettings {
  stage: DeployStage;
  /** JWT `sub`s allowed to manage the permission catalog, comma-separated (INTERNAL_OPERATOR_IDS). */
  internalOperatorIds: string;
  /** Where Bearer tokens' signing keys are published; empty disables Bearer tokens. */
  jwksUrl: string;
  jwtIssuer: string;
}

export function stageSettings(node: Node): StageSettings {
  const stage = String(node.tryGetContext('stage') ?? 'dev');
  if (!deployStages.includes(stage as DeployStage)) {
    throw new Error(`-c stage=${stage}: the stage must be one of ${deployStages.join(', ')}`);
  }
  const text = (key: string) => String(node.tryGetContext(key) ?? '');
  return {
    stage: stage as DeployStage,
    internalOperatorIds: text('internalOperatorIds'),
    jwksUrl: text('jwksUrl'),
    jwtIssuer: text('jwtIssuer'),
  };
}

/** How long a stage's data and logs outlive a mistake: production keeps everything. */
export interface Durability {
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
  logRetention: RetentionDays;
}

export function durabilityOf(stage: DeployStage): Durability {
  return stage === 'prod'
    ? { removalPolicy: RemovalPolicy.RETAIN, deletionProtection: true, logRetention: RetentionDays.THREE_MONTHS }
    : { removalPolicy: RemovalPolicy.DESTROY, deletionProtection: false, logRetention: RetentionDays.TWO_WEEKS };
}
