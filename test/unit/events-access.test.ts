/** Who sees which events: the read permission and scope of each resource kind, the log's filter, an event's location. */
import { describe, expect, it } from 'vitest';
import { builtInPermissions } from '../../shared/auth/catalog';
import type { Principal } from '../../shared/auth/principal';
import { visibilityFilter } from '../../shared/data/events';
import { canReadEvent, loggedEventNames, readableEvents } from '../../shared/domain/events';
import { eventCatalog, eventLocation, resourceAccess } from '../../shared/events/catalog';

const principal = (permissions: string[], locationIds: number[] | null = null): Principal => ({
  kind: 'apiKey',
  companyId: 1,
  permissions,
  tier: 'standard',
  locationIds,
  rateSubject: 'k',
  internalOperator: false,
});

describe('resourceAccess', () => {
  it('gives every resource kind of the catalog a built-in read permission', () => {
    for (const resource of new Set(Object.values(eventCatalog))) {
      expect(builtInPermissions, resource).toContain(resourceAccess[resource].read);
      expect(resourceAccess[resource].read, resource).toMatch(/\.read$/);
    }
  });

  it('keeps guest PII, key records and subscriptions behind their own reads', () => {
    expect(resourceAccess.guest.read).toBe('bookings.read');
    expect(resourceAccess['api-key'].read).toBe('api_keys.read');
    expect(resourceAccess['webhook-subscription'].read).toBe('webhooks.read');
    const onlyCoursings = principal(['events.read', 'coursings.read']);
    expect(readableEvents(onlyCoursings)).toEqual(['coursing.created', 'coursing.updated']);
    expect(canReadEvent(onlyCoursings, 'guest.created')).toBe(false);
  });

  it('lists every event but webhook.test as logged', () => {
    expect(loggedEventNames).not.toContain('webhook.test');
    expect(loggedEventNames).toHaveLength(Object.keys(eventCatalog).length - 1);
  });
});

describe('eventLocation', () => {
  it("is the data's locationId, or the id of a location or its settings, else null", () => {
    expect(eventLocation({ resource: 'booking', resourceId: 'x', data: { locationId: 101 } })).toBe(101);
    expect(eventLocation({ resource: 'location', resourceId: '102', data: { id: 102 } })).toBe(102);
    expect(eventLocation({ resource: 'booking-settings', resourceId: '103', data: {} })).toBe(103);
    expect(eventLocation({ resource: 'guest', resourceId: '5000', data: { id: 5000 } })).toBeNull();
    expect(eventLocation({ resource: 'api-key', resourceId: 'k', data: { locationIds: [101] } })).toBeNull();
  });
});

describe('visibilityFilter', () => {
  it('lets through the events seen anywhere, and the others only at the locations', () => {
    const f = visibilityFilter({
      anywhere: ['api-key.created'],
      atLocations: ['booking.created', 'booking.updated'],
      locations: [101],
    });
    expect(f.expression).toBe('#payload.#event IN (:e0) OR (#payload.#event IN (:le0, :le1) AND #locationId IN (:l0))');
    expect(f.values).toEqual({
      ':e0': 'api-key.created',
      ':le0': 'booking.created',
      ':le1': 'booking.updated',
      ':l0': 101,
    });
  });

  it('drops the location part when no location-bound event is readable', () => {
    const f = visibilityFilter({ anywhere: ['role.created'], atLocations: [], locations: [101] });
    expect(f.expression).toBe('#payload.#event IN (:e0)');
    expect(f.names).toEqual({ '#payload': 'payload', '#event': 'event' });
  });
});
