/**
 * cdk-nag's AwsSolutions pack finds nothing that is not acknowledged with a reason, judged as
 * `cdk synth` judges it: the app is built by infra/app.ts (what bin/app.ts runs), the pack runs as
 * its validation plugin on the synthesized templates (references resolved; in a nested stack a
 * value of the parent arrives as a parameter), and the report the CLI reads from the cloud
 * assembly (`validation-report.json`) must hold no failure. Both stages, and a synthetic route
 * table the size the API will grow to. Only bundling is skipped (`.ci/run` synthesizes with it,
 * through the CDK CLI).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../infra/app';
import type { Route } from '../../shared/routes';
import { cdkContext, syntheticRoutes, TEST_ALARM_EMAIL } from './synth';

interface ValidationReport {
  pluginReports: {
    pluginName: string;
    conclusion: string;
    violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[];
  }[];
}

function synthWithNag(stage: string, routes?: readonly Route[]) {
  const outdir = mkdtempSync(join(inject('synthDir'), 'nag-'));
  const app = new App({
    outdir,
    context: { ...cdkContext, stage, alarmEmail: TEST_ALARM_EMAIL, 'aws:cdk:bundling-stacks': [] },
  });
  const stack = buildApp(app, routes);
  let error: unknown;
  try {
    app.synth();
  } catch (e) {
    error = e;
  }
  const reportFile = join(outdir, 'validation-report.json');
  const report = existsSync(reportFile)
    ? (JSON.parse(readFileSync(reportFile, 'utf8')) as ValidationReport)
    : { pluginReports: [] };
  const findings = report.pluginReports.flatMap((p) =>
    p.violations.flatMap((v) => v.violatingConstructs.map((c) => `${p.pluginName} ${v.ruleName}: ${c.constructPath}`)),
  );
  return { stack, error, report, findings };
}

describe.each([
  ['dev, the route table', 'dev', undefined],
  ['prod, the route table', 'prod', undefined],
  ['dev, 90 synthetic routes over 10 areas', 'dev', syntheticRoutes()],
])('AwsSolutions on %s', (_, stage, routes) => {
  const synth = synthWithNag(stage, routes);

  it('synthesizes with no unacknowledged finding, as the CDK CLI reads the report', () => {
    expect(synth.findings).toEqual([]);
    expect(synth.report.pluginReports.filter((p) => p.conclusion !== 'success')).toEqual([]);
    expect(synth.error).toBeUndefined();
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
