/**
 * The Lambda REQUEST authorizer (functions/authorizer.ts): verifies the X-API-Key or Bearer
 * credential, passes the principal to the handlers and names the usage-plan key that meters the
 * request. With it, the stage's API key pepper (shared/auth/verifier.ts): a generated Secrets
 * Manager secret, which reaches the authorizer and the functions that write key lookups as
 * API_KEY_PEPPER through a CloudFormation dynamic reference (resolved at deploy; never in a template).
 */
import { Duration, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { functionGrants } from './data-access';
import { HandlerFunction } from './handler-function';
import { grantData } from './handler-role';
import type { DeployStage, Durability } from './settings';
import type { BrigadeTable } from './table';
import type { UsageKeys } from './usage-tiers';

export interface CredentialAuthorizerProps {
  stage: DeployStage;
  durability: Durability;
  table: BrigadeTable;
  environment: Record<string, string>;
  usageKeys: UsageKeys;
  /** Its reserved concurrency (edge.ts): a flood of requests stops here, not at the account's limit. */
  reservedConcurrency: number | undefined;
}

export class CredentialAuthorizer extends Construct {
  readonly authorizer: apigw.RequestAuthorizer;
  readonly functionName: string;
  /** API_KEY_PEPPER's value: a dynamic reference to the pepper secret, for the functions that write key lookups. */
  readonly apiKeyPepper: string;

  constructor(scope: Construct, id: string, props: CredentialAuthorizerProps) {
    super(scope, id);
    // Not a credential: bcrypt hashes stay the keys' credential. Lost or rotated, every key pays one
    // bcrypt run again and gets a new verifier (docs/access.md, "How a key is verified").
    const pepper = new secretsmanager.Secret(this, 'ApiKeyPepper', {
      secretName: `brigade-${props.stage}/api-key-pepper`,
      description: `Brigade ${props.stage}: the pepper of API key verifiers (HMAC-SHA256 key)`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: props.durability.removalPolicy,
    });
    Validations.of(pepper).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The pepper only keys the verifiers beside bcrypt hashes: a new value turns every verifier off until each key has passed bcrypt once more, so it is rotated by hand with a deploy (docs/access.md), not on a schedule.',
    });
    this.apiKeyPepper = pepper.secretValue.unsafeUnwrap();
    const role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    // A key is found by its keyId in one GetItem (shared/data/apiKeys.ts); a role-based key also
    // reads its role (one GetItem of its company's partition).
    grantData(role, props.table, functionGrants.authorizer);
    const handler = new HandlerFunction(this, 'Handler', {
      entry: 'functions/authorizer.ts',
      functionName: `brigade-${props.stage}-authorizer`,
      role,
      environment: {
        ...props.environment,
        USAGE_KEYS: JSON.stringify(props.usageKeys),
        API_KEY_PEPPER: this.apiKeyPepper,
      },
      durability: props.durability,
      // Not smaller than the handlers: bcrypt is CPU-bound and Lambda's CPU share grows with memory.
      reservedConcurrency: props.reservedConcurrency,
    });
    handler.logGroup.grantWrite(role);
    this.functionName = handler.function.functionName;

    this.authorizer = new apigw.RequestAuthorizer(this, 'Authorizer', {
      authorizerName: `brigade-${props.stage}-credential`,
      handler: handler.function,
      // No result cache: API Gateway keys it on identity sources and answers 401 itself, without
      // the authorizer, to a request missing any of them; a caller sends X-API-Key or Authorization
      // (or neither, answered 401 by the handler), so no identity source can be required
      // (docs/access.md, "How a key is verified"). The in-memory cache alone bounds revocation.
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });
    // CDK renders the empty list as an empty string; without caching the property is optional,
    // so leave it out rather than hand API Gateway an empty identity source.
    (this.authorizer.node.defaultChild as apigw.CfnAuthorizer).addPropertyDeletionOverride('IdentitySource');
  }
}
