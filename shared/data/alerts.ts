/**
 * Alerts (docs/alerts.md): what operators must look at. The service raises them itself (a dead webhook
 * delivery, a print job the printer reported failed, a no-show sweep that failed); the alerts API
 * lists them and moves them on (acknowledge, resolve).
 *
 *   alert   C#<cid> / ALERT#<id>
 *           gsi1 C#<cid>#ALERTS / <rank>#<createdAt>#<id>                          the company's
 *           gsi2 C#<cid>#ALERTS#L#<locationId:12 | COMPANY> / <rank>#<createdAt>#<id>   one location's
 *
 * `rank` is the status as one sortable character (active 3, acknowledged 2, resolved 1): read
 * newest first, a list shows the active alerts, then the acknowledged, then the resolved, each
 * newest first, and a status filter is a `begins_with` of the sort key. Severity and type are
 * filters of the Query. Counted per company, per status, per location and per location and
 * status; a transition moves the status counters in its transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { Page } from '../page';
import { AlertView } from '../schemas/alerts';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { counterStep, logPage, readLog, type PageRequest, type QuerySpan } from './paging';
import { equalsAll, transact, type Step } from './transact';
import type { ItemKey } from './batch';

/**
 * An alert as stored and shown: declared by AlertView. `locationId` is null for alerts about the
 * company as a whole (a webhook test event, a failure naming no location).
 */
export type Alert = Static<typeof AlertView>;
type AlertSeverity = Alert['severity'];
type AlertStatus = Alert['latestStatus'];

export interface AlertFilter {
  /** A location's alerts; undefined: every alert of the company (company-wide ones included). */
  locationId?: number | undefined;
  status?: AlertStatus | undefined;
  severity?: AlertSeverity | undefined;
  alertType?: string | undefined;
}

/** What a raiser says about an alert; the rest (id, status, times) is filled in. */
export interface AlertInput {
  locationId: number | null;
  alertType: string;
  severity: AlertSeverity;
  title: string;
  message?: string | null;
  details?: Record<string, unknown> | null;
  stackTrace?: string | null;
  context?: Record<string, unknown> | null;
}

/** A new, active alert. */
export function newAlert(input: AlertInput, at = new Date().toISOString()): Alert {
  return {
    id: randomUUID(),
    locationId: input.locationId,
    alertType: input.alertType,
    severity: input.severity,
    title: input.title,
    message: input.message ?? null,
    details: input.details ?? null,
    stackTrace: input.stackTrace ?? null,
    context: input.context ?? null,
    latestStatus: 'active',
    resolvedAt: null,
    resolvedBy: null,
    acknowledgedAt: null,
    acknowledgedBy: null,
    version: 1,
    createdAt: at,
    updatedAt: at,
  };
}

const rank: Record<AlertStatus, string> = { active: '3', acknowledged: '2', resolved: '1' };
const all = (companyId: number) => `${keys.company(companyId)}#ALERTS`;
const place = (locationId: number | null) => (locationId === null ? 'COMPANY' : keys.pad(locationId));
const ofLocation = (companyId: number, locationId: number | null) => `${all(companyId)}#L#${place(locationId)}`;
const sortKey = (a: Alert) => `${rank[a.latestStatus]}#${a.createdAt}#${a.id}`;

const alertEntity = defineEntity({
  name: 'ALERT',
  label: 'alert',
  key: (companyId: number, id: string) => companyKey(companyId, `ALERT#${id}`),
  schema: AlertView,
  keyOf: (companyId, a) => [companyId, a.id] as const,
  indexes: (companyId, a) => ({
    gsi1pk: all(companyId),
    gsi1sk: sortKey(a),
    gsi2pk: ofLocation(companyId, a.locationId),
    gsi2sk: sortKey(a),
  }),
});

/** The counter of the alerts a filter's key conditions select (the company's, a status's, a location's, both). */
function counter(
  companyId: number,
  f: { locationId?: number | null | undefined; status?: AlertStatus | undefined },
): ItemKey {
  const where = f.locationId === undefined ? '' : `#L#${place(f.locationId)}`;
  return companyKey(companyId, `COUNT#ALERT${where}${f.status === undefined ? '' : `#S#${f.status}`}`);
}

/** The counters an alert is counted in, given its location and status. */
const countersOf = (companyId: number, a: Pick<Alert, 'locationId' | 'latestStatus'>) => [
  counter(companyId, {}),
  counter(companyId, { locationId: a.locationId }),
  counter(companyId, { status: a.latestStatus }),
  counter(companyId, { locationId: a.locationId, status: a.latestStatus }),
];

/** A new alert and its counters, as steps of the transaction that records what it is about. */
export const newAlertSteps = (companyId: number, alert: Alert): Step[] => [
  alertEntity.newItemStep(companyId, alert),
  ...countersOf(companyId, alert).map((c) => counterStep(c, 1)),
];

/** Raises an alert on its own (a failure with no other write to ride with): one transaction. */
export const raiseAlert = (companyId: number, alert: Alert): Promise<void> => transact(newAlertSteps(companyId, alert));

/** Where a filter reads: the location's partition when it names one, else the company's; a status narrows the sort key. */
function spanOf(companyId: number, f: AlertFilter): QuerySpan {
  const byLocation = f.locationId !== undefined;
  const filter = equalsAll({ severity: f.severity, alertType: f.alertType });
  return {
    index: byLocation ? 'gsi2' : 'gsi1',
    partition: byLocation ? ofLocation(companyId, f.locationId!) : all(companyId),
    ...(f.status === undefined ? {} : { range: { op: 'begins_with', value: `${rank[f.status]}#` } }),
    newestFirst: true,
    ...(filter ? { filter } : {}),
  };
}

export const alerts = {
  get: alertEntity.get,

  /**
   * One page: one Query (gsi2 for a location, gsi1 otherwise; a status is a key condition). With
   * neither severity nor type it is a counted list; with either, those are filters of the Query,
   * so a page may be short with a cursor going on and `total` counts what was listed up to it
   * (plus one while more may follow), as the event log's does.
   */
  async list(companyId: number, f: AlertFilter, page: PageRequest): Promise<Page<Alert>> {
    const span = spanOf(companyId, f);
    if (span.filter) return logPage(await readLog(span, page), alertEntity.from);
    const prefix = span.range?.op === 'begins_with' ? span.range.value : undefined;
    return alertEntity.list(
      {
        index: span.index!,
        partition: span.partition,
        ...(prefix ? { prefix } : {}),
        newestFirst: true,
        counter: counter(companyId, f),
      },
      page,
    );
  },

  /** Replaces the alert while it is still at the version read (409 otherwise), moving its status counters. */
  async transition(companyId: number, prev: Alert, next: Alert): Promise<void> {
    const moved =
      prev.latestStatus === next.latestStatus
        ? []
        : [
            ...countersOf(companyId, prev)
              .slice(2)
              .map((c) => counterStep(c, -1)),
            ...countersOf(companyId, next)
              .slice(2)
              .map((c) => counterStep(c, 1)),
          ];
    await transact([alertEntity.versionedPutStep(companyId, next, prev.version), ...moved]);
  },
};
