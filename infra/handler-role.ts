/**
 * The one execution role of every HTTP handler. One role instead of ~90 keeps the parent stack's
 * resource count and IAM's per-account role quota out of the way; what the handlers may do is the
 * data layer's item API on the one table, their logs, and adding per-merchant usage keys.
 */
import { ArnFormat, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { Tier } from '../shared/schemas/access';
import type { BrigadeTable } from './table';
import { apiGatewayArn } from './usage-tiers';

/** Item-level actions only (TransactWriteItems/TransactGetItems are authorized per item action). */
export const itemActions = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:Query',
  'dynamodb:BatchGetItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

export interface HandlerRoleProps {
  table: BrigadeTable;
  /** Handlers' log groups all start with this (`/aws/lambda/brigade-dev-`). */
  logGroupPrefix: string;
  plans: Record<Tier, apigw.UsagePlan>;
}

export class HandlerRole extends iam.Role {
  constructor(scope: Construct, id: string, { table, logGroupPrefix, plans }: HandlerRoleProps) {
    super(scope, id, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description: 'Brigade HTTP handlers' });
    this.addToPolicy(new iam.PolicyStatement({ actions: itemActions, resources: table.itemArns }));

    const logGroups = Stack.of(this).formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: `${logGroupPrefix}*:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.addToPolicy(new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroups] }));

    // A merchant's usage key (shared/ports/apiGatewayUsagePlans.ts): CreateApiKey, then
    // CreateUsagePlanKey on its tier's plan; a tier change deletes the plan key and creates it on
    // the new plan; revoking deletes the gateway key.
    const planKeys = Object.values(plans).map((plan) => apiGatewayArn(this, `/usageplans/${plan.usagePlanId}/keys`));
    this.addToPolicy(new iam.PolicyStatement({ actions: ['apigateway:POST'], resources: [apiGatewayArn(this, '/apikeys'), ...planKeys] }));
    this.addToPolicy(
      new iam.PolicyStatement({
        actions: ['apigateway:DELETE'],
        resources: [apiGatewayArn(this, '/apikeys/*'), ...planKeys.map((arn) => `${arn}/*`)],
      }),
    );

    Validations.of(this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:${logGroupPrefix}*:*]`,
      reason: "The handlers' log groups live in the area stacks; naming each would exceed IAM's inline policy size at ~90 functions, so the grant covers this stage's handler log-group prefix (streams are named by Lambda).",
    });
    // The deletes name a key whose id API Gateway assigns at run time.
    const keyPaths = ['/apikeys/*', ...Object.values(plans).map((plan) => `/usageplans/<${Stack.of(this).getLogicalId(plan.node.defaultChild as CfnElement)}>/keys/*`)];
    Validations.of(this).acknowledge(
      ...keyPaths.map((path) => ({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::${path}]`,
        reason: "Deleting a merchant's gateway key or its plan membership names the key, whose id API Gateway assigns at run time: the grant covers /apikeys/* and the three plans' /keys/* only.",
      })),
    );
  }
}
