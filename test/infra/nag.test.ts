/**
 * cdk-nag's AwsSolutions pack finds nothing that is not acknowledged with a reason, in the parent
 * stack and in each nested stack (bin/app.ts runs the same pack and fails the synth otherwise).
 */
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { synthesize, syntheticRoutes } from './synth';

describe.each([
  ['the route table', routes],
  ['90 synthetic routes over 10 areas', syntheticRoutes()],
])('AwsSolutions on %s', (_, table) => {
  const synth = synthesize({ routes: table, fresh: true });

  it.each(synth.stacks.map((s) => [s.node.path, s] as const))('%s has no unacknowledged findings', (_path, stack) => {
    const report = new AwsSolutionsChecks().validateScope(stack);
    const findings = report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
  });

  it('gives every acknowledgement a reason', () => {
    const acknowledgements = synth.stack.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.entries(m.data as Record<string, string>));
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const [rule, reason] of acknowledgements) expect(reason.length, rule).toBeGreaterThan(40);
  });
});
