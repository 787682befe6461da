/**
 * Runtime configuration, read once from the environment. Lambda functions get these variables
 * from CDK; the local stage sets them before it loads any handler.
 */
import { parseCorsOrigins } from './http/cors';

export type Stage = 'local' | 'dev' | 'prod';

/** What carries webhook deliveries to their attempts (`Config.deliveryQueue`). */
export type DeliveryQueue = 'sqs' | 'due-index';

export interface Config {
  stage: Stage;
  tableName: string;
  /** Set only off AWS (DynamoDB Local). */
  dynamoEndpoint: string | undefined;
  /**
   * How long one attempt of a DynamoDB call may take before it counts as failed (and is retried,
   * then answered 503): DYNAMODB_TIMEOUT_MS, 2 s on AWS (three attempts fit the 10 s function
   * timeout), 10 s on the local stage, where a loaded laptop's DynamoDB Local may be slow.
   */
  dynamoTimeoutMs: number;
  region: string;
  /** Version string carried by webhook payloads and the health probes. */
  apiVersion: string;
  /** HS256 secret for Bearer tokens on the local stage. */
  jwtSecret: string | undefined;
  /** JWKS URL for Bearer tokens on deployed stages. */
  jwksUrl: string | undefined;
  /**
   * The secret API key verifiers are made under (API_KEY_PEPPER, at least 32 characters; shared/auth/verifier.ts):
   * on AWS the authorizer's and the key-writing functions' (infra/credential-authorizer.ts), on the local stage
   * derived from its own secret (bin/local/stage.ts). Absent: keys are verified by bcrypt alone.
   */
  apiKeyPepper: string | undefined;
  /**
   * The `iss` and `aud` every Bearer token must carry: this stage's issuer and this API. Without
   * both, no token is accepted. The local stage has its own (`localTokenBinding`).
   */
  jwtIssuer: string | undefined;
  jwtAudience: string | undefined;
  /** User ids (JWT `sub`) allowed to manage the permission catalog. */
  internalOperatorIds: ReadonlySet<string>;
  /** /ready reports `degraded` when a dependency answers slower than this. */
  readySlowMs: number;
  /** Live API keys a company may create through the API (docs/access.md, threat model). */
  apiKeysPerCompany: number;
  /**
   * The key the docs page fills in for "try it" (DOCS_TRY_IT_KEY, which bin/local/stage.ts sets to
   * the seeded admin key): on the local stage only; any other stage's page names no key, whatever
   * the environment says (docs/docs-page.md).
   */
  docsTryItKey: string | undefined;
  /** Browser origins allowed on operations that take a credential (CORS_ORIGINS, comma-separated; checked at synth): shared/http/cors.ts. */
  corsOrigins: readonly string[];
  /**
   * What carries webhook deliveries to their attempts (WEBHOOK_DELIVERY_QUEUE): `sqs`, the stage's
   * SQS delivery queue (every deployed stage has one: infra/webhooks-pipeline.ts), or `due-index`,
   * the table's due index that the local stage's delivery worker polls (bin/local/pipeline.ts).
   * Deliveries carry the index's attributes only where it is the queue: on AWS nothing reads it,
   * and each write of it would copy the delivery's rendered body into the index for nothing.
   * Default: `due-index` on the local stage, `sqs` on the others. Every function that writes
   * deliveries reads it (the dispatcher, the delivery function, the test-event and retry handlers),
   * so it follows the stage rather than a setting only some of them get.
   */
  deliveryQueue: DeliveryQueue;
}

/** The API's version string: <YYYYMMDD>-<HHMM>-<counter>. */
export const API_VERSION = '20261120-2200-1';

const stages: readonly Stage[] = ['local', 'dev', 'prod'];

/** The issuer and audience of the local stage's own HS256 tokens (no other stage accepts them). */
export const localTokenBinding = { issuer: 'urn:brigade:local', audience: 'urn:brigade:local:api' } as const;

/** The default of API_KEYS_PER_COMPANY. */
export const DEFAULT_API_KEYS_PER_COMPANY = 50;

const deliveryQueues: readonly DeliveryQueue[] = ['sqs', 'due-index'];

function deliveryQueueOf(stage: Stage, value: string | undefined): DeliveryQueue {
  if (value === undefined || value === '') return stage === 'local' ? 'due-index' : 'sqs';
  if (!deliveryQueues.includes(value as DeliveryQueue))
    throw new Error(`WEBHOOK_DELIVERY_QUEUE must be one of ${deliveryQueues.join(', ')}, not "${value}"`);
  return value as DeliveryQueue;
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not "${value}"`);
  return n;
}

/** The API key pepper: none when unset; a short one is a mistake, refused rather than used. */
function pepperOf(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < 32) throw new Error('API_KEY_PEPPER must be at least 32 characters');
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const stage = (env.STAGE ?? 'local') as Stage;
  if (!stages.includes(stage)) throw new Error(`STAGE must be one of ${stages.join(', ')}`);
  return {
    stage,
    tableName: env.TABLE_NAME ?? `brigade-${stage}`,
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    dynamoTimeoutMs: positiveInteger(
      'DYNAMODB_TIMEOUT_MS',
      env.DYNAMODB_TIMEOUT_MS,
      stage === 'local' ? 10_000 : 2_000,
    ),
    region: env.AWS_REGION ?? 'eu-north-1',
    apiVersion: API_VERSION,
    jwtSecret: env.JWT_SECRET || undefined,
    jwksUrl: env.JWKS_URL || undefined,
    apiKeyPepper: pepperOf(env.API_KEY_PEPPER),
    jwtIssuer: env.JWT_ISSUER || (stage === 'local' ? localTokenBinding.issuer : undefined),
    jwtAudience: env.JWT_AUDIENCE || (stage === 'local' ? localTokenBinding.audience : undefined),
    internalOperatorIds: new Set(
      (env.INTERNAL_OPERATOR_IDS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    readySlowMs: Number(env.READY_SLOW_MS ?? 250),
    apiKeysPerCompany: positiveInteger('API_KEYS_PER_COMPANY', env.API_KEYS_PER_COMPANY, DEFAULT_API_KEYS_PER_COMPANY),
    docsTryItKey: stage === 'local' ? env.DOCS_TRY_IT_KEY || undefined : undefined,
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS ?? '', 'CORS_ORIGINS'),
    deliveryQueue: deliveryQueueOf(stage, env.WEBHOOK_DELIVERY_QUEUE),
  };
}

let current: Config | undefined;

/** The process-wide configuration (read lazily so the local stage can set the environment first). */
export function config(): Config {
  current ??= loadConfig();
  return current;
}

/** Tests and the local stage call this after changing the environment. */
export function resetConfig(): void {
  current = undefined;
}
