import * as alerts from '../schemas/alerts';
import { row } from './route';

export const alertsRoutes = [
  row({
    operationId: 'listAlerts',
    method: 'GET',
    path: '/api/v1/alerts',
    permission: 'alerts.read',
    handler: 'functions/alerts/list.ts',
    area: 'alerts',
    schemas: { query: alerts.ListAlertsQuery, response: alerts.AlertListView },
  }),
  row({
    operationId: 'acknowledgeAlert',
    method: 'POST',
    path: '/api/v1/alerts/{id}/acknowledge',
    permission: 'alerts.manage',
    handler: 'functions/alerts/acknowledge.ts',
    area: 'alerts',
    schemas: { path: alerts.AlertPath, response: alerts.AlertView },
  }),
  row({
    operationId: 'resolveAlert',
    method: 'POST',
    path: '/api/v1/alerts/{id}/resolve',
    permission: 'alerts.manage',
    handler: 'functions/alerts/resolve.ts',
    area: 'alerts',
    schemas: { path: alerts.AlertPath, response: alerts.AlertView },
  }),
] as const;
