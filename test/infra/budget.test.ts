/**
 * CloudFormation takes at most 500 resources per stack. The parent stack's size does not grow
 * with the number of operations except by API resources (path segments); an area stack grows by
 * four per operation (function, log group, permission, method).
 */
import { describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { resourceCount, synthesize, syntheticRoutes } from './synth';

const LIMIT = 500;

describe.each([
  ['the route table', routes],
  ['90 synthetic routes over 10 areas', syntheticRoutes()],
])('%s', (_, table) => {
  const synth = synthesize({ routes: table });
  const counts = Object.fromEntries(synth.stacks.map((s) => [s.node.path, resourceCount(synth.template(s))]));

  it(`stays under ${LIMIT} resources in every stack`, () => {
    console.info(`resources per stack (${table.length} routes):`, counts);
    for (const [stack, count] of Object.entries(counts)) expect(count, stack).toBeLessThan(LIMIT);
  });

  // An area stack grows by four resources per operation, so it keeps 60 % free for new ones. The
  // parent grows only by a path segment per new path: with the route table of today (158
  // routes) it holds 205; below half the limit leaves room for about 45 more
  // segments, and half the limit still free for a later split. Alarms, the dashboard and the
  // catalog seed live in nested stacks of their own.
  it('leaves every stack room to grow (area stacks below 40 % of the limit, the parent below 50 %)', () => {
    for (const [stack, count] of Object.entries(counts))
      expect(count, stack).toBeLessThan(LIMIT * (stack === synth.stack.node.path ? 0.5 : 0.4));
  });
});
