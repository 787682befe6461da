/**
 * Alerts (spec 2.2): what operators must look at. The webhook pipeline raises one when a delivery
 * dies; the alerts API (list, acknowledge, resolve) reads and changes them.
 */
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { counterStep } from './paging';
import type { Step } from './transact';

export type AlertSeverity = 'info' | 'warning' | 'error' | 'critical';
export type AlertStatus = 'active' | 'acknowledged' | 'resolved';

export interface Alert {
  id: string;
  /** Null for alerts about the company as a whole (a webhook subscription has no location). */
  locationId: number | null;
  alertType: string;
  severity: AlertSeverity;
  title: string;
  message: string | null;
  details: Record<string, unknown> | null;
  stackTrace: string | null;
  context: Record<string, unknown> | null;
  latestStatus: AlertStatus;
  resolvedAt: string | null;
  resolvedBy: number | null;
  acknowledgedAt: string | null;
  acknowledgedBy: number | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** An alert: in its company's partition; the company's alerts listed (gsi1) by creation time. */
export const alertEntity = defineEntity({
  name: 'ALERT',
  label: 'alert',
  key: (companyId: number, id: string) => companyKey(companyId, `ALERT#${id}`),
  keyOf: (companyId, a: Alert) => [companyId, a.id] as const,
  fields: [
    'id', 'locationId', 'alertType', 'severity', 'title', 'message', 'details', 'stackTrace', 'context',
    'latestStatus', 'resolvedAt', 'resolvedBy', 'acknowledgedAt', 'acknowledgedBy', 'version', 'createdAt', 'updatedAt',
  ],
  indexes: (companyId, a) => ({ gsi1pk: `${keys.company(companyId)}#ALERTS`, gsi1sk: `${a.createdAt}#${a.id}` }),
});

const counter = (companyId: number) => companyKey(companyId, 'COUNT#ALERT');

/** A new alert and its list counter, as steps of the transaction that records what it is about. */
export const newAlertSteps = (companyId: number, alert: Alert): Step[] => [alertEntity.newItemStep(companyId, alert), counterStep(counter(companyId), 1)];

export const alerts = {
  get: alertEntity.get,
};
