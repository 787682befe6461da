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

  it('leaves every stack room to grow (below 40 % of the limit)', () => {
    for (const [stack, count] of Object.entries(counts)) expect(count, stack).toBeLessThan(LIMIT * 0.4);
  });
});
