/**
 * The CDK app: one stage per synth/deploy, `npx cdk deploy -c stage=dev|prod` (default dev).
 * cdk-nag's AwsSolutions pack checks the synthesized templates; any finding that is not
 * acknowledged with a reason fails the synth (infra/app.ts).
 */
import { App } from 'aws-cdk-lib';
import { buildApp } from '../infra/app';
import { writeOperations } from './tools/gen-operations';

// The handlers import their generated operation modules; bundling needs them on disk (they are not committed).
writeOperations();

buildApp(new App());
