/**
 * The no-show sweeper (functions/sweeper/no-shows.ts): a function run every 5 minutes by an
 * EventBridge schedule, with a role that allows only the item reads and writes its transactions
 * make, on the families they touch (data-access.ts; no Scan, no API keys, no webhook secrets).
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { functionGrants } from './data-access';
import { HandlerFunction } from './handler-function';
import { grantData } from './handler-role';
import type { DeployStage, Durability } from './settings';
import type { BrigadeTable } from './table';

const SWEEP_SCHEDULE = events.Schedule.rate(Duration.minutes(5));

export interface NoShowSweeperProps {
  stage: DeployStage;
  durability: Durability;
  table: BrigadeTable;
  environment: Record<string, string>;
}

export class NoShowSweeper extends Construct {
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, { stage, durability, table, environment }: NoShowSweeperProps) {
    super(scope, id);
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Brigade no-show sweeper',
    });
    const sweeper = new HandlerFunction(this, 'Handler', {
      entry: 'functions/sweeper/no-shows.ts',
      functionName: `brigade-${stage}-no-show-sweeper`,
      role,
      environment,
      durability,
      timeout: Duration.minutes(2),
    });
    sweeper.logGroup.grantWrite(role);
    // Queries the sweep partitions, reads bookings, writes each no-show's transaction.
    grantData(role, table, functionGrants.noShowSweeper);
    this.rule = new events.Rule(this, 'Schedule', {
      description: 'Marks bookings as no-shows autoNoShowDelayMinutes after their start',
      schedule: SWEEP_SCHEDULE,
      targets: [new targets.LambdaFunction(sweeper.function, { retryAttempts: 0 })],
    });
  }
}
