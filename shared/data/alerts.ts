/**
 * Alerts (spec 2.2): what operators must look at. The webhook pipeline raises one when a delivery
 * dies; the alerts API (list, acknowledge, resolve) reads and changes them.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
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

const fields = [
  'id', 'locationId', 'alertType', 'severity', 'title', 'message', 'details', 'stackTrace', 'context',
  'latestStatus', 'resolvedAt', 'resolvedBy', 'acknowledgedAt', 'acknowledgedBy', 'version', 'createdAt', 'updatedAt',
] as const;

const key = (companyId: number, id: string) => ({ pk: keys.company(companyId), sk: `ALERT#${id}` });
const counter = (companyId: number) => ({ pk: keys.company(companyId), sk: 'COUNT#ALERT' });

/** A new alert and its list counter, as steps of the transaction that records what it is about. */
export function newAlertSteps(companyId: number, alert: Alert): Step[] {
  return [
    {
      item: {
        Put: {
          TableName: tableName(),
          Item: {
            ...key(companyId, alert.id),
            // The company's alerts, newest last by creation time.
            gsi1pk: `${keys.company(companyId)}#ALERTS`,
            gsi1sk: `${alert.createdAt}#${alert.id}`,
            entity: 'ALERT',
            companyId,
            ...alert,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    counterStep(counter(companyId), 1),
  ];
}

export const alerts = {
  async get(companyId: number, id: string): Promise<Alert | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId, id) }));
      return out.Item ? pick<Alert>(out.Item, fields) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },
};
