/**
 * One usage plan per tier (docs/api.md, “Rate limits”). The hourly limits are counted by the handlers in
 * DynamoDB; a plan adds API Gateway's per-second throttle per API key.
 *
 * With `apiKeySource: AUTHORIZER` the key that meters a request is the one the authorizer names
 * (`usageIdentifierKey`): the merchant key's own usage key when it has one, else its tier's
 * shared fallback key, or the anonymous key for a credential that did not verify. Clients never
 * send these values, so they are identifiers, not secrets, and are derived from stage and name.
 *
 * A fallback key is shared by a crowd: every JWT user (all at the standard tier), and keys made
 * before usage keys existed. A tier plan's per-key throttle would make that crowd one bucket, where
 * one busy user slows every other; so the fallback keys sit on a plan of their own, the crowd plan,
 * whose throttle is only a ceiling for the crowd, and each member of it is limited on its own by
 * the web ACL (edge.ts: per bearer token, per API key) and by its hourly window.
 */
import { createHash } from 'node:crypto';
import { Arn, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource, PhysicalResourceId, type AwsSdkCall } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { tiers, type Tier } from '../shared/schemas/access';
import type { DeployStage, Durability } from './settings';

/**
 * Per-second limits per merchant key (its own usage key): bursts well above the tier's hourly
 * allowance spread over the hour. Callers without a usage key of their own are on the crowd plan.
 */
export const tierThrottles: Record<Tier, apigw.ThrottleSettings> = {
  standard: { rateLimit: 50, burstLimit: 100 },
  premium: { rateLimit: 200, burstLimit: 400 },
  unlimited: { rateLimit: 1000, burstLimit: 2000 },
};

/** Per key of the crowd plan (each tier's fallback key): the crowd's ceiling, not one caller's. */
export const crowdThrottle: apigw.ThrottleSettings = { rateLimit: 1000, burstLimit: 2000 };

/** The USAGE_KEYS the authorizer reads: a fallback key value per tier, and the anonymous one. */
export type UsageKeys = Record<Tier | 'anonymous', string>;

/** 64 hex characters: API Gateway wants at least 20 alphanumerics. */
export const usageKeyValue = (stage: DeployStage, name: keyof UsageKeys) =>
  createHash('sha256').update(`brigade/${stage}/usage-key/${name}`).digest('hex');

export interface UsageTiersProps {
  api: apigw.RestApi;
  stage: DeployStage;
  durability: Durability;
}

export class UsageTiers extends Construct {
  /** The tier plans, where merchants' own usage keys go. */
  readonly plans: Record<Tier, apigw.UsagePlan>;
  /** The plan of the tiers' fallback keys. */
  readonly crowdPlan: apigw.UsagePlan;
  readonly keys: UsageKeys;
  /**
   * What the API-key operations may do to merchants' usage keys (shared/ports/apiGatewayUsagePlans.ts),
   * attached to their roles in the area stacks. It lives here, beside the plans it names: in a nested
   * stack a plan id is a parameter, and the acknowledgement below could not name it.
   */
  readonly manageKeysPolicy: iam.ManagedPolicy;

  constructor(scope: Construct, id: string, { api, stage, durability }: UsageTiersProps) {
    super(scope, id);
    this.keys = Object.fromEntries(
      [...tiers, 'anonymous' as const].map((name) => [name, usageKeyValue(stage, name)]),
    ) as UsageKeys;
    const association = new AssociationFunctionSettings(this, 'StageAssociation', durability);
    this.plans = Object.fromEntries(
      tiers.map((tier) => {
        const plan = new apigw.UsagePlan(this, `${tier}Plan`, {
          name: `brigade-${stage}-${tier}`,
          description: `Brigade ${tier} tier`,
          throttle: tierThrottles[tier],
        });
        new StageAssociation(this, `${tier}StageAssociation`, { plan, api, settings: association });
        return [tier, plan];
      }),
    ) as Record<Tier, apigw.UsagePlan>;
    this.crowdPlan = new apigw.UsagePlan(this, 'crowdPlan', {
      name: `brigade-${stage}-crowd`,
      description:
        "Brigade tiers' fallback keys: JWT users and keys without a usage key of their own, each limited by the web ACL",
      throttle: crowdThrottle,
    });
    new StageAssociation(this, 'crowdStageAssociation', { plan: this.crowdPlan, api, settings: association });
    for (const tier of tiers) this.addKey(this.crowdPlan, stage, tier);
    // Callers whose credential did not verify: one small bucket for all of them.
    this.addKey(this.plans.standard, stage, 'anonymous');
    this.manageKeysPolicy = this.manageKeys(stage);
  }

  /**
   * CreateApiKey, then CreateUsagePlanKey on its tier's plan; a tier change deletes the plan key and
   * creates it on the new plan; revoking deletes the gateway key. Nothing else of API Gateway.
   */
  private manageKeys(stage: DeployStage): iam.ManagedPolicy {
    const planKeys = Object.values(this.plans).map((plan) =>
      apiGatewayArn(this, `/usageplans/${plan.usagePlanId}/keys`),
    );
    const policy = new iam.ManagedPolicy(this, 'ManageKeysPolicy', {
      description: `Brigade ${stage}: merchants' usage keys (create, add to a tier plan, move, delete)`,
      statements: [
        new iam.PolicyStatement({
          actions: ['apigateway:POST'],
          resources: [apiGatewayArn(this, '/apikeys'), ...planKeys],
        }),
        new iam.PolicyStatement({
          actions: ['apigateway:DELETE'],
          resources: [apiGatewayArn(this, '/apikeys/*'), ...planKeys.map((arn) => `${arn}/*`)],
        }),
      ],
    });
    // The deletes name a key whose id API Gateway assigns at run time: only its path can be granted.
    const stack = Stack.of(this);
    const keyPaths = [
      '/apikeys/*',
      ...Object.values(this.plans).map(
        (plan) => `/usageplans/<${stack.getLogicalId(plan.node.defaultChild as CfnElement)}>/keys/*`,
      ),
    ];
    Validations.of(policy).acknowledge(
      ...keyPaths.map((path) => ({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::${path}]`,
        reason:
          "Deleting a merchant's gateway key or its plan membership names the key, whose id API Gateway assigns at run time: the grant covers /apikeys/* and the three tier plans' /keys/* only.",
      })),
    );
    return policy;
  }

  private addKey(plan: apigw.UsagePlan, stage: DeployStage, name: keyof UsageKeys): void {
    const key = new apigw.ApiKey(this, `${name}Key`, {
      apiKeyName: `brigade-${stage}-${name}`,
      description:
        name === 'anonymous'
          ? 'Meters callers whose credential did not verify'
          : `Shared by ${name} callers without a usage key of their own`,
      value: this.keys[name],
    });
    plan.addApiKey(key);
  }
}

/** The ARN IAM uses for an API Gateway management path (`/apikeys`, `/usageplans/{id}`). */
const apiGatewayArn = (scope: Construct, path: string) =>
  Arn.format({ service: 'apigateway', account: '', resource: path }, Stack.of(scope));

/** The role and log group of CDK's custom-resource function, which all associations share. */
class AssociationFunctionSettings extends Construct {
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, durability: Durability) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: durability.logRetention,
      removalPolicy: durability.removalPolicy,
    });
    this.role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(this.role);
  }
}

interface StageAssociationProps {
  plan: apigw.UsagePlan;
  api: apigw.RestApi;
  settings: AssociationFunctionSettings;
}

/**
 * Attaches a usage plan to the API's stage after the stage exists. The plan itself cannot list
 * the stage (ApiStages): the handlers read the plan ids (USAGE_PLAN_IDS), the deployment waits
 * for the handlers' stacks and the stage for the deployment, so that would be a cycle.
 */
class StageAssociation extends AwsCustomResource {
  constructor(scope: Construct, id: string, { plan, api, settings }: StageAssociationProps) {
    const apiStage = `${api.restApiId}:${api.deploymentStage.stageName}`;
    const patch = (op: 'add' | 'remove'): AwsSdkCall => ({
      service: 'APIGateway',
      action: 'UpdateUsagePlan',
      parameters: { usagePlanId: plan.usagePlanId, patchOperations: [{ op, path: '/apiStages', value: apiStage }] },
      physicalResourceId: PhysicalResourceId.of(`${plan.usagePlanId}/${apiStage}`),
    });
    super(scope, id, {
      onCreate: patch('add'),
      onUpdate: patch('add'),
      onDelete: { ...patch('remove'), ignoreErrorCodesMatching: 'NotFoundException' },
      role: settings.role,
      logGroup: settings.logGroup,
      installLatestAwsSdk: false,
    });
    settings.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['apigateway:PATCH'],
        resources: [apiGatewayArn(scope, `/usageplans/${plan.usagePlanId}`)],
      }),
    );
  }
}
