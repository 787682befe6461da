/** Alerts (docs/alerts.md; docs/api.md): the list's query and the path of acknowledge and resolve. */
import { Type, type Static } from './typebox';
import { Nullable, NumericId, Uuid, pageQuery } from './common';
import { TEXT_PATTERNS } from './patterns';

const alertSeverities = ['info', 'warning', 'error', 'critical'] as const;
const alertStatuses = ['active', 'acknowledged', 'resolved'] as const;

export const ListAlertsQuery = Type.Object({
  locationId: Type.Optional(NumericId),
  severity: Type.Optional(Type.Union(alertSeverities.map((s) => Type.Literal(s)))),
  status: Type.Optional(Type.Union(alertStatuses.map((s) => Type.Literal(s)))),
  alertType: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: TEXT_PATTERNS.name,
      description: 'exact type name (webhook.delivery.dead, print_job.failed, no_show_sweep.failed)',
    }),
  ),
  ...pageQuery(100, 20),
});

export const AlertPath = Type.Object({ id: Uuid });

const instant = Type.String({ format: 'date-time' });
const free = Type.Record(Type.String(), Type.Unknown());

/** An alert the service raised (docs/alerts.md), with who acknowledged or resolved it. */
export const AlertView = Type.Object(
  {
    id: Uuid,
    locationId: Nullable(NumericId),
    alertType: Type.String({ description: 'webhook.delivery.dead, print_job.failed, no_show_sweep.failed, …' }),
    severity: Type.Union(alertSeverities.map((s) => Type.Literal(s))),
    title: Type.String(),
    message: Nullable(Type.String()),
    details: Nullable(free),
    stackTrace: Nullable(Type.String()),
    context: Nullable(free),
    latestStatus: Type.Union(alertStatuses.map((s) => Type.Literal(s))),
    resolvedAt: Nullable(instant),
    resolvedBy: Nullable(NumericId),
    acknowledgedAt: Nullable(instant),
    acknowledgedBy: Nullable(NumericId),
    version: Type.Integer({ minimum: 1 }),
    createdAt: instant,
    updatedAt: instant,
  },
  { title: 'Alert', additionalProperties: false },
);

/** The list answers `data.alerts` (docs/api.md), paged as every list. */
export const AlertListView = Type.Object({ alerts: Type.Array(AlertView) }, { additionalProperties: false });

export type ListAlertsQuery = Static<typeof ListAlertsQuery>;
export type AlertPath = Static<typeof AlertPath>;
