/**
 * A schedule rule's shape (docs/schedules.md "Rules"): what each rule type needs and may not have,
 * its times with the seconds stripped, its dates real days. Pure: no I/O.
 */
import { DateTime } from 'luxon';
import type { FieldProblem } from '../../errors';
import type { RuleBody, RuleTiming, RuleType } from '../../schemas/schedules';
import { stripSeconds } from './availability';

/** The fields of a rule that say when it applies, as stored (every one present, null when unset). */
export type RuleFields = RuleTiming;

const realDay = (date: string) => DateTime.fromISO(date, { zone: 'UTC' }).isValid;

/** A rule's fields as given (a body, or a stored rule with a patch over it), nulls filled in and seconds stripped. */
export function normalizedRule(input: Partial<RuleBody> & { ruleType: RuleType }): RuleFields {
  const time = (t: string | null | undefined) => (t == null ? null : stripSeconds(t));
  return {
    ruleType: input.ruleType,
    weekday: input.weekday ?? null,
    startTime: time(input.startTime),
    endTime: time(input.endTime),
    startDate: input.startDate ?? null,
    endDate: input.endDate ?? null,
    validFrom: input.validFrom ?? null,
    validTo: input.validTo ?? null,
    isAvailable: input.isAvailable ?? true,
  };
}

/**
 * What is wrong with a rule, each problem under `prefix` (`/rules/3`, or '' for a rule of its own):
 * - `weekly` needs `weekday` and has no `startDate`/`endDate`;
 * - `date_range` needs `startDate` ≤ `endDate` and has no `weekday`;
 * - `startTime` and `endTime` come together (a window) or not at all (whole days);
 * - dates are real days; `validFrom` ≤ `validTo`.
 */
export function ruleProblems(rule: RuleFields, prefix = ''): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const at = (field: string, message: string) => problems.push({ path: `${prefix}/${field}`, message });
  if (rule.ruleType === 'weekly') {
    if (rule.weekday === null) at('weekday', 'is required for a weekly rule (0 = Sunday … 6 = Saturday)');
    if (rule.startDate !== null) at('startDate', 'is only for date_range rules');
    if (rule.endDate !== null) at('endDate', 'is only for date_range rules');
  } else {
    if (rule.weekday !== null) at('weekday', 'is only for weekly rules');
    if (rule.startDate === null) at('startDate', 'is required for a date_range rule');
    if (rule.endDate === null) at('endDate', 'is required for a date_range rule');
  }
  if ((rule.startTime === null) !== (rule.endTime === null))
    at(
      rule.startTime === null ? 'startTime' : 'endTime',
      'startTime and endTime come together (or neither: whole days)',
    );
  for (const field of ['startDate', 'endDate', 'validFrom', 'validTo'] as const) {
    const value = rule[field];
    if (value !== null && !realDay(value)) at(field, 'is not a real day');
  }
  if (rule.startDate !== null && rule.endDate !== null && rule.startDate > rule.endDate)
    at('endDate', 'must be on or after startDate');
  if (rule.validFrom !== null && rule.validTo !== null && rule.validFrom > rule.validTo)
    at('validTo', 'must be on or after validFrom');
  return problems;
}
