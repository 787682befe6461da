/**
 * The Lambda REQUEST authorizer (functions/authorizer.ts): verifies the X-API-Key or Bearer
 * credential, passes the principal to the handlers and names the usage-plan key that meters the
 * request.
 */
import { Duration } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
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

  constructor(scope: Construct, id: string, props: CredentialAuthorizerProps) {
    super(scope, id);
    const role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    // A key is found by its keyId in one GetItem (shared/data/apiKeys.ts); a role-based key also
    // reads its role (one GetItem of its company's partition).
    grantData(role, props.table, functionGrants.authorizer);
    const handler = new HandlerFunction(this, 'Handler', {
      entry: 'functions/authorizer.ts',
      functionName: `brigade-${props.stage}-authorizer`,
      role,
      environment: { ...props.environment, USAGE_KEYS: JSON.stringify(props.usageKeys) },
      durability: props.durability,
      // Not smaller than the handlers: bcrypt is CPU-bound and Lambda's CPU share grows with memory.
      reservedConcurrency: props.reservedConcurrency,
    });
    handler.logGroup.grantWrite(role);
    this.functionName = handler.function.functionName;

    this.authorizer = new apigw.RequestAuthorizer(this, 'Authorizer', {
      authorizerName: `brigade-${props.stage}-credential`,
      handler: handler.function,
      // A caller sends X-API-Key or Authorization; an identity source would make API Gateway
      // refuse requests lacking it (and key a cache on it), so there is none and no caching.
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });
    // CDK renders the empty list as an empty string; without caching the property is optional,
    // so leave it out rather than hand API Gateway an empty identity source.
    (this.authorizer.node.defaultChild as apigw.CfnAuthorizer).addPropertyDeletionOverride('IdentitySource');
  }
}
