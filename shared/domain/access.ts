import type { Principal } from '../auth/principal';
import { locations, type Location } from '../data/locations';
import { forbidden, notFound, validationFailed } from '../errors';

/**
 * 403 unless the caller is an internal operator: a user whose JWT `sub` is on the stage's
 * INTERNAL_OPERATOR_IDS. Every other credential is refused, a company's admin key included (its
 * admin role holds every permission, the platform's too). `what` says what only operators may do.
 */
export function assertInternalOperator(principal: Principal, what: string): void {
  if (principal.kind !== 'user' || !principal.internalOperator) throw forbidden(`Only internal operators may ${what}`);
}

/** 403 unless the credential may act on the location (keys can be limited to some locations). */
export function assertLocationAllowed(principal: Principal, locationId: number): void {
  if (principal.locationIds && !principal.locationIds.includes(locationId)) {
    throw forbidden(`This credential may not act on location ${locationId}`);
  }
}

/**
 * The location an `X-Location-Id` header names (docs/access.md, docs/api.md): a positive decimal integer without
 * leading zeros, at most the largest id the API uses. A header that is present but not such an id
 * is a 400, never ignored: ignoring it would widen the request to every location.
 */
export function headerLocation(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (/^[1-9][0-9]{0,15}$/.test(header) && Number(header) <= Number.MAX_SAFE_INTEGER) return Number(header);
  throw validationFailed('The X-Location-Id header is not a location id', [
    {
      path: '/headers/X-Location-Id',
      message: `must be a location id: a positive decimal integer without leading zeros, at most ${Number.MAX_SAFE_INTEGER}`,
    },
  ]);
}

/** The location a request names by its query (or body) or else its X-Location-Id header, if any: 403 when the credential may not act on it. */
export function namedLocation(
  principal: Principal,
  named: number | undefined,
  header: string | undefined,
): number | undefined {
  const fromHeader = headerLocation(header);
  const chosen = named ?? fromHeader;
  if (chosen !== undefined) assertLocationAllowed(principal, chosen);
  return chosen;
}

/**
 * The location a list is filtered to: the query's, else the X-Location-Id header's. A credential
 * limited to one location defaults to it; one limited to several must name one (403 otherwise).
 */
export function listLocation(
  principal: Principal,
  fromQuery: number | undefined,
  header: string | undefined,
): number | undefined {
  const fromHeader = headerLocation(header);
  const chosen =
    fromQuery ?? fromHeader ?? (principal.locationIds?.length === 1 ? principal.locationIds[0] : undefined);
  if (chosen === undefined) {
    if (principal.locationIds) throw forbidden('This credential is limited to some locations: pass locationId');
    return undefined;
  }
  assertLocationAllowed(principal, chosen);
  return chosen;
}

/** The company's location: 404 when it has none of that id (another company's location answers as an unknown one). One GetItem. */
export async function existingLocation(companyId: number, locationId: number): Promise<Location> {
  const location = await locations.get(companyId, locationId);
  if (!location) throw notFound(`Location ${locationId}`);
  return location;
}

/**
 * A list of one location (named by the query or the X-Location-Id header, or the one location a
 * credential is limited to) that came back empty: 404 when the company has no such location, as
 * any id of another company answers (decisions.md); an empty page cannot tell "none yet" from
 * another tenant's location. One GetItem, for empty pages only.
 */
export async function listedAt<P extends { items: readonly unknown[] }>(
  companyId: number,
  locationId: number | undefined,
  page: P,
): Promise<P> {
  if (locationId !== undefined && page.items.length === 0) await existingLocation(companyId, locationId);
  return page;
}
