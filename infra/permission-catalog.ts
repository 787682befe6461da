/**
 * The built-in permission catalog, seeded at deploy (docs/onboarding.md): a function
 * (functions/catalog/seed.ts) run by a CloudFormation trigger once the table exists, and again at
 * every deploy that changes the function (its bundle holds the catalog, so a new or changed
 * built-in changes it; so does a new table name). Its role may read the catalog, write its items
 * and take permission ids, nothing else (data-access.ts `functionGrants.catalogSeeder`). A run
 * that fails fails the deploy. CDK's trigger provider (one per stack, a CustomResourceProvider)
 * only invokes the function's versions; it takes no log group, so one is given to it here.
 */
import { type CfnResource, Duration, NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as triggers from 'aws-cdk-lib/triggers';
import type { Construct } from 'constructs';
import { functionGrants } from './data-access';
import { giveLogGroup, HandlerFunction } from './handler-function';
import { grantData } from './handler-role';
import type { DeployStage, Durability } from './settings';
import type { BrigadeTable } from './table';

/** The construct id under which CDK's triggers put their provider, once per stack (aws-cdk-lib/triggers). */
const TRIGGER_PROVIDER_ID = 'AWSCDK.TriggerCustomResourceProviderCustomResourceProvider';

export interface PermissionCatalogSeedProps extends NestedStackProps {
  stage: DeployStage;
  durability: Durability;
  table: BrigadeTable;
  environment: Record<string, string>;
}

/** A nested stack of its own: the parent stack stays well below CloudFormation's 500 resources (budget.test.ts). */
export class PermissionCatalogSeed extends NestedStack {
  readonly handler: HandlerFunction;
  readonly trigger: triggers.Trigger;

  constructor(
    scope: Construct,
    id: string,
    { stage, durability, table, environment, ...props }: PermissionCatalogSeedProps,
  ) {
    super(scope, id, props);
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Brigade permission catalog seed',
    });
    this.handler = new HandlerFunction(this, 'Handler', {
      entry: 'functions/catalog/seed.ts',
      functionName: `brigade-${stage}-catalog-seed`,
      role,
      environment,
      durability,
      timeout: Duration.minutes(1),
    });
    this.handler.logGroup.grantWrite(role);
    grantData(role, table, functionGrants.catalogSeeder);
    this.trigger = new triggers.Trigger(this, 'Trigger', {
      handler: this.handler.function,
      executeAfter: [table],
      executeOnHandlerChange: true,
      timeout: Duration.minutes(2),
    });
    // The trigger's provider (one per stack): its logs kept as long as the stage keeps logs.
    const provider = this.node.findChild(TRIGGER_PROVIDER_ID).node.findChild('Handler') as CfnResource;
    giveLogGroup(provider, durability);
  }
}
