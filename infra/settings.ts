/**
 * What differs between deployed stages, read from CDK context (`-c stage=prod`, cdk.json).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { DEFAULT_API_KEYS_PER_COMPANY, type Stage } from '../shared/config';
import { parseCorsOrigins } from '../shared/http/cors';

/** The stages CDK deploys; `local` runs on one machine (bin/local.ts) and never here. */
export type DeployStage = Exclude<Stage, 'local'>;
const deployStages: readonly DeployStage[] = ['dev', 'prod'];

export interface StageSettings {
  stage: DeployStage;
  /** JWT `sub`s allowed to manage the permission catalog, comma-separated (INTERNAL_OPERATOR_IDS). */
  internalOperatorIds: string;
  /** Where Bearer tokens' signing keys are published; empty disables Bearer tokens. */
  jwksUrl: string;
  /** The `iss` and `aud` a token must carry; both required when `jwksUrl` is set (checked here, at synth). */
  jwtIssuer: string;
  jwtAudience: string;
  /** Live API keys a company may create through the API (API_KEYS_PER_COMPANY; default 50). */
  apiKeysPerCompany: number;
  /** Who the stage's alarms e-mail (monitoring.ts); required on prod, optional on dev. */
  alarmEmail: string;
  /**
   * X-Ray tracing of every function and of the REST stage (shared/runtime/tracing.ts): on for prod,
   * off for dev unless `-c tracing=true`. Traces cost per segment recorded and scanned.
   */
  tracing: boolean;
  /**
   * Browser origins allowed to call the operations that take a credential (`-c corsOrigins=https://a.example,https://b.example`);
   * empty: none (docs/infra.md "CORS"). The public operations answer every origin.
   */
  corsOrigins: readonly string[];
}

export function stageSettings(node: Node): StageSettings {
  const stage = String(node.tryGetContext('stage') ?? 'dev');
  if (!deployStages.includes(stage as DeployStage)) {
    throw new Error(`-c stage=${stage}: the stage must be one of ${deployStages.join(', ')}`);
  }
  const text = (key: string) => String(node.tryGetContext(key) ?? '').trim();
  const settings = {
    stage: stage as DeployStage,
    internalOperatorIds: text('internalOperatorIds'),
    jwksUrl: text('jwksUrl'),
    jwtIssuer: text('jwtIssuer'),
    jwtAudience: text('jwtAudience'),
    apiKeysPerCompany: Number(text('apiKeysPerCompany') || DEFAULT_API_KEYS_PER_COMPANY),
    alarmEmail: text('alarmEmail'),
    tracing: tracingOf(stage as DeployStage, text('tracing')),
    corsOrigins: parseCorsOrigins(text('corsOrigins'), `-c stage=${stage}: corsOrigins`),
  };
  if (settings.alarmEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(settings.alarmEmail)) {
    throw new Error(`-c stage=${stage}: alarmEmail "${settings.alarmEmail}" is not an e-mail address`);
  }
  if (stage === 'prod' && !settings.alarmEmail) {
    throw new Error(
      `-c stage=prod: alarmEmail is empty. A production stage's alarms must reach someone: set -c alarmEmail=oncall@yourcompany.com (docs/deploy.md).`,
    );
  }
  if (settings.jwksUrl && (!settings.jwtIssuer || !settings.jwtAudience)) {
    const missing = ['jwtIssuer', 'jwtAudience'].filter((k) => !settings[k as 'jwtIssuer' | 'jwtAudience']);
    throw new Error(
      `-c stage=${stage}: jwksUrl is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} empty. Bearer tokens must be bound to this stage's issuer and this API's audience, or a token the identity provider issued to another stage or application would be accepted here; set -c jwtIssuer=… -c jwtAudience=…, or leave jwksUrl empty to turn Bearer tokens off.`,
    );
  }
  if (!Number.isInteger(settings.apiKeysPerCompany) || settings.apiKeysPerCompany < 1) {
    throw new Error(
      `-c stage=${stage}: apiKeysPerCompany must be a positive integer, not "${text('apiKeysPerCompany')}"`,
    );
  }
  return settings;
}

function tracingOf(stage: DeployStage, raw: string): boolean {
  if (raw === '') return stage === 'prod';
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new Error(`-c stage=${stage}: tracing is true or false, not "${raw}"`);
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
