/** Alerts (spec 2.2, 4.1): the list's query and the path of acknowledge and resolve. */
import { Type, type Static } from '@sinclair/typebox';
import { NumericId, Uuid, pageQuery } from './common';

export const alertSeverities = ['info', 'warning', 'error', 'critical'] as const;
export const alertStatuses = ['active', 'acknowledged', 'resolved'] as const;

export const ListAlertsQuery = Type.Object({
  locationId: Type.Optional(NumericId),
  severity: Type.Optional(Type.Union(alertSeverities.map((s) => Type.Literal(s)))),
  status: Type.Optional(Type.Union(alertStatuses.map((s) => Type.Literal(s)))),
  alertType: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'exact type name (webhook.delivery.dead, print_job.failed, no_show_sweep.failed)' })),
  ...pageQuery(100, 20),
});

export const AlertPath = Type.Object({ id: Uuid });

export type ListAlertsQuery = Static<typeof ListAlertsQuery>;
export type AlertPath = Static<typeof AlertPath>;
