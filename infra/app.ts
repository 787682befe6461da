/**
 * The CDK app as `cdk synth` and `cdk deploy` build it (bin/app.ts), and as the template tests
 * build it: one stage per app, tagged, with cdk-nag's AwsSolutions pack as a validation plugin. The
 * plugin runs on the synthesized templates (references resolved, nested stacks' parameters
 * included), and any finding not acknowledged with a reason fails the synth.
 */
import { Tags, Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Route } from '../shared/routes';
import { BrigadeStack } from './brigade-stack';
import { stageSettings } from './settings';

export function buildApp(app: App, routes?: readonly Route[]): BrigadeStack {
  const settings = stageSettings(app.node);
  const stack = new BrigadeStack(app, `Brigade-${settings.stage}`, {
    settings,
    ...(routes && { routes }),
    description: `Brigade restaurant operations API (${settings.stage})`,
  });
  Tags.of(app).add('project', 'brigade');
  Tags.of(app).add('stage', settings.stage);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
