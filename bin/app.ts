/**
 * The CDK app: one stage per synth/deploy, `npx cdk deploy -c stage=dev|prod` (default dev).
 * cdk-nag's AwsSolutions pack checks it; any finding that is not acknowledged with a reason
 * fails the synth.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { BrigadeStack } from '../infra/brigade-stack';
import { stageSettings } from '../infra/settings';
import { writeOperations } from './tools/gen-operations';

// The handlers import their generated operation modules; bundling needs them on disk (they are not committed).
writeOperations();

const app = new App();
const settings = stageSettings(app.node);
new BrigadeStack(app, `Brigade-${settings.stage}`, {
  settings,
  description: `Brigade restaurant operations API (${settings.stage})`,
});
Tags.of(app).add('project', 'brigade');
Tags.of(app).add('stage', settings.stage);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
