/**
 * Synthesizes the Brigade stack as `cdk synth` does (cdk.json's context and feature flags), minus
 * asset bundling, and hands out the parent and nested templates.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, CfnElement, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { inject } from 'vitest';
import { BrigadeStack } from '../../infra/brigade-stack';
import { stageSettings } from '../../infra/settings';
import { routes as routeTable, type Route } from '../../shared/routes';

/** cdk.json's context: the feature flags and default settings `cdk synth` uses. */
/**
 * A resource of a synthesized template as the infra tests read it. Its properties are
 * CloudFormation's own JSON, a different shape for every resource type; each test reads the paths it
 * checks and asserts their values.
 */
export interface TemplateResource {
  Type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- CloudFormation properties differ per resource type; each infra test reads them by path and asserts what it reads
  Properties: Record<string, any>;
  DependsOn?: string[];
  DeletionPolicy?: string;
}

export const cdkContext = (
  JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> }
).context;

export const TEST_ALARM_EMAIL = 'oncall@brigade.example';

export interface Synthesized {
  stack: BrigadeStack;
  /** The parent stack first, then every nested stack. */
  stacks: Stack[];
  template(stack: Stack): Template;
  /** The CloudFormation resource of a construct, as synthesized in its own stack. */
  resourceOf(element: IConstruct): { Type: string; Properties: Record<string, unknown>; DependsOn?: string[] };
}

export interface SynthOptions {
  routes?: readonly Route[];
  context?: Record<string, unknown>;
}

/**
 * The stack as the options build it. Synthesizing the whole API takes seconds, and most files
 * read the same two stacks (the route table's, the synthetic table's) with the same context, so
 * those are built once per worker and shared (the infra project does not isolate its files, see
 * vitest.config.ts); tests only read what they get. Any other table is built afresh.
 */
export function synthesize(options: SynthOptions = {}): Synthesized {
  const key = sharedKey(options);
  if (key === undefined) return build(options);
  return shared.get(key) ?? shared.set(key, build(options)).get(key)!;
}

const shared = new Map<string, Synthesized>();

function sharedKey({ routes, context = {} }: SynthOptions): string | undefined {
  const table =
    routes === undefined || routes === routeTable ? 'route table' : routes === synthetic ? 'synthetic' : undefined;
  return table && `${table} ${JSON.stringify(context)}`;
}

function build({ routes, context = {} }: SynthOptions): Synthesized {
  // A prod stage needs someone to e-mail its alarms (settings.ts): the tests' stages all name one.
  // Every assembly goes under the run's folder (test/support/synth-setup.ts), removed at its end.
  const outdir = mkdtempSync(join(inject('synthDir'), 'app-'));
  const app = new App({
    outdir,
    context: { ...cdkContext, alarmEmail: TEST_ALARM_EMAIL, ...context, 'aws:cdk:bundling-stacks': [] },
  });
  const settings = stageSettings(app.node);
  const stack = new BrigadeStack(app, `Brigade-${settings.stage}`, { settings, ...(routes && { routes }) });
  const templates = new Map<Stack, Template>();
  const template = (s: Stack) => templates.get(s) ?? templates.set(s, Template.fromStack(s)).get(s)!;
  return {
    stack,
    stacks: [stack, ...stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c))],
    template,
    resourceOf(element) {
      const cfn = (CfnElement.isCfnElement(element) ? element : element.node.defaultChild) as CfnElement;
      const owner = Stack.of(cfn);
      return template(owner).toJSON().Resources[owner.getLogicalId(cfn)];
    },
  };
}

export const resourceCount = (template: Template) => Object.keys(template.toJSON().Resources).length;

/**
 * A route table the size the finished API will have: 90 operations over 10 areas (nine shapes
 * each), half of the areas under one shared collection (like the location-scoped operations),
 * one public operation per area. Every row points at a real handler file, since NodejsFunction checks the entry exists.
 */
export function syntheticRoutes(): readonly Route[] {
  return (synthetic ??= makeSyntheticRoutes());
}

let synthetic: readonly Route[] | undefined;

function makeSyntheticRoutes(): Route[] {
  const shapes: [Route['method'], string, boolean][] = [
    ['GET', '', false],
    ['POST', '', false],
    ['GET', '/{id}', false],
    ['PATCH', '/{id}', false],
    ['DELETE', '/{id}', false],
    ['POST', '/{id}/confirm', false],
    ['POST', '/{id}/cancel', false],
    ['GET', '/{id}/history', false],
    ['POST', '/by-code/{code}/cancel', true],
  ];
  return Array.from({ length: 10 }, (_, a) => `area${a}`).flatMap((area, a) => {
    const collection = a % 2 ? `/api/v1/locations/{locationId}/${area}` : `/api/v1/${area}`;
    return shapes.map(
      ([method, suffix, isPublic], s): Route => ({
        operationId: `${area}Op${s}`,
        method,
        path: `${collection}${suffix}`,
        permission: isPublic ? null : `${area}.manage`,
        handler: 'functions/health/live.ts',
        area,
        schemas: {},
      }),
    );
  });
}
