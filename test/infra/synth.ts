/**
 * Synthesizes the Brigade stack as `cdk synth` does (cdk.json's context and feature flags), minus
 * asset bundling, and hands out the parent and nested templates.
 */
import { readFileSync } from 'node:fs';
import { App, CfnElement, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { BrigadeStack } from '../../infra/brigade-stack';
import { stageSettings } from '../../infra/settings';
import type { Route } from '../../shared/routes';

const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };

export const TEST_ALARM_EMAIL = 'oncall@brigade.example';

export interface Synthesized {
  stack: BrigadeStack;
  /** The parent stack first, then every nested stack. */
  stacks: Stack[];
  template(stack: Stack): Template;
  /** The CloudFormation resource of a construct, as synthesized in its own stack. */
  resourceOf(element: IConstruct): { Type: string; Properties: Record<string, unknown>; DependsOn?: string[] };
}

export function synthesize({ routes, context = {} }: { routes?: readonly Route[]; context?: Record<string, unknown> } = {}): Synthesized {
  // A prod stage needs someone to e-mail its alarms (settings.ts): the tests' stages all name one.
  const app = new App({ context: { ...cdkJson.context, alarmEmail: TEST_ALARM_EMAIL, ...context, 'aws:cdk:bundling-stacks': [] } });
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
export function syntheticRoutes(): Route[] {
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
    return shapes.map(([method, suffix, isPublic], s): Route => ({
      operationId: `${area}Op${s}`,
      method,
      path: `${collection}${suffix}`,
      permission: isPublic ? null : `${area}.manage`,
      handler: 'functions/health/live.ts',
      area,
      schemas: {},
    }));
  });
}
