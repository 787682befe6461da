/**
 * Alerts (docs/alerts.md): listing them, and their transitions
 *
 *   active → acknowledged → resolved, and active → resolved
 *
 * recording who (the calling user's id; null for an API key) and when. Acknowledging an
 * acknowledged alert answers it unchanged (idempotent); anything asked of a resolved alert is 409.
 * Alerts emit no events (the event catalog has none). `newAlert` (data/alerts.ts) builds the alerts
 * the service raises itself.
 */
import type { Principal } from '../auth/principal';
import { alerts, type Alert } from '../data/alerts';
import { conflict, forbidden, notFound } from '../errors';
import { namedPage, type Page } from '../page';
import type { ListAlertsQuery } from '../schemas/alerts';
import { assertLocationAllowed, listedAt, listLocation } from './access';

export { newAlert, type AlertInput } from '../data/alerts';

/**
 * The user id `acknowledgedBy`/`resolvedBy` record: a bearer token's `sub` (numeric: the token
 * check refuses others); null for an API key (a key is no user).
 */
function actingUserId(principal: Principal): number | null {
  if (principal.kind !== 'user' || principal.userId === undefined || !/^[1-9][0-9]{0,15}$/.test(principal.userId))
    return null;
  const id = Number(principal.userId);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * The company's alerts, active first then acknowledged then resolved, each newest first. A
 * credential limited to some locations lists one of them (it names it, or has only one); the
 * company-wide alerts (`locationId` null) are listed only to credentials that reach every location.
 */
export async function listAlerts(
  principal: Principal,
  query: ListAlertsQuery,
  headerLocation?: string,
): Promise<Page<Alert>> {
  const locationId = listLocation(principal, query.locationId, headerLocation);
  const page = await listedAt(
    principal.companyId,
    locationId,
    await alerts.list(
      principal.companyId,
      { locationId, status: query.status, severity: query.severity, alertType: query.alertType },
      query,
    ),
  );
  return namedPage(page, 'alerts');
}

/** The alert, for a caller who may act on its location (a company-wide alert: on every location). */
async function visibleAlert(principal: Principal, id: string): Promise<Alert> {
  const found = await alerts.get(principal.companyId, id);
  if (!found) throw notFound(`Alert ${id}`);
  if (found.locationId === null) {
    if (principal.locationIds)
      throw forbidden(
        'This alert is about the whole company; a credential limited to some locations may not act on it',
      );
  } else assertLocationAllowed(principal, found.locationId);
  return found;
}

export async function acknowledgeAlert(principal: Principal, id: string): Promise<Alert> {
  const prev = await visibleAlert(principal, id);
  if (prev.latestStatus === 'acknowledged') return prev;
  if (prev.latestStatus === 'resolved') throw conflict(`Alert ${id} is resolved; it cannot be acknowledged`);
  const now = new Date().toISOString();
  const next: Alert = {
    ...prev,
    latestStatus: 'acknowledged',
    acknowledgedAt: now,
    acknowledgedBy: actingUserId(principal),
    version: prev.version + 1,
    updatedAt: now,
  };
  await alerts.transition(principal.companyId, prev, next);
  return next;
}

/** Resolves an active or acknowledged alert (an active one keeps `acknowledgedAt` null: it was never acknowledged). */
export async function resolveAlert(principal: Principal, id: string): Promise<Alert> {
  const prev = await visibleAlert(principal, id);
  if (prev.latestStatus === 'resolved') throw conflict(`Alert ${id} is already resolved`);
  const now = new Date().toISOString();
  const next: Alert = {
    ...prev,
    latestStatus: 'resolved',
    resolvedAt: now,
    resolvedBy: actingUserId(principal),
    version: prev.version + 1,
    updatedAt: now,
  };
  await alerts.transition(principal.companyId, prev, next);
  return next;
}
