import { Type } from '@sinclair/typebox';
import * as groups from '../schemas/bookingGroups';
import * as locations from '../schemas/locations';
import * as tables from '../schemas/tables';
import { row } from './route';

const area = 'setup';
const locationPath = '/api/v1/locations/{locationId}';

export const setupRoutes = [
  row({ operationId: 'listLocations', method: 'GET', path: '/api/v1/locations', permission: 'locations.read', handler: 'functions/locations/list.ts', area, schemas: { query: locations.ListLocationsQuery, response: Type.Array(locations.LocationView) } }),
  row({ operationId: 'createLocation', method: 'POST', path: '/api/v1/locations', permission: 'locations.manage', handler: 'functions/locations/create.ts', area, schemas: { body: locations.CreateLocationBody, response: locations.LocationView } }),
  row({ operationId: 'getLocation', method: 'GET', path: locationPath, permission: 'locations.read', handler: 'functions/locations/get.ts', area, schemas: { path: locations.LocationPath, response: locations.LocationView } }),
  row({ operationId: 'updateLocation', method: 'PATCH', path: locationPath, permission: 'locations.manage', handler: 'functions/locations/update.ts', area, schemas: { path: locations.LocationPath, body: locations.UpdateLocationBody, response: locations.LocationView } }),
  row({ operationId: 'deleteLocation', method: 'DELETE', path: locationPath, permission: 'locations.manage', handler: 'functions/locations/delete.ts', area, schemas: { path: locations.LocationPath, response: locations.LocationView } }),

  row({ operationId: 'listTables', method: 'GET', path: `${locationPath}/tables`, permission: 'tables.read', handler: 'functions/tables/list.ts', area, schemas: { path: locations.LocationPath, query: tables.ListTablesQuery, response: Type.Array(tables.TableView) } }),
  row({ operationId: 'createTable', method: 'POST', path: `${locationPath}/tables`, permission: 'tables.manage', handler: 'functions/tables/create.ts', area, schemas: { path: locations.LocationPath, body: tables.CreateTableBody, response: tables.TableView } }),
  row({ operationId: 'getTable', method: 'GET', path: `${locationPath}/tables/{id}`, permission: 'tables.read', handler: 'functions/tables/get.ts', area, schemas: { path: tables.TablePath, response: tables.TableView } }),
  row({ operationId: 'updateTable', method: 'PATCH', path: `${locationPath}/tables/{id}`, permission: 'tables.manage', handler: 'functions/tables/update.ts', area, schemas: { path: tables.TablePath, body: tables.UpdateTableBody, response: tables.TableView } }),
  row({ operationId: 'deleteTable', method: 'DELETE', path: `${locationPath}/tables/{id}`, permission: 'tables.manage', handler: 'functions/tables/delete.ts', area, schemas: { path: tables.TablePath, response: tables.TableView } }),

  row({ operationId: 'listBookingGroups', method: 'GET', path: `${locationPath}/booking-groups`, permission: 'booking_groups.read', handler: 'functions/booking-groups/list.ts', area, schemas: { path: locations.LocationPath, query: groups.ListBookingGroupsQuery, response: Type.Array(groups.BookingGroupView) } }),
  row({ operationId: 'createBookingGroup', method: 'POST', path: `${locationPath}/booking-groups`, permission: 'booking_groups.manage', handler: 'functions/booking-groups/create.ts', area, schemas: { path: locations.LocationPath, body: groups.CreateBookingGroupBody, response: groups.BookingGroupView } }),
  row({ operationId: 'getBookingGroup', method: 'GET', path: `${locationPath}/booking-groups/{id}`, permission: 'booking_groups.read', handler: 'functions/booking-groups/get.ts', area, schemas: { path: groups.BookingGroupPath, response: groups.BookingGroupView } }),
  row({ operationId: 'updateBookingGroup', method: 'PATCH', path: `${locationPath}/booking-groups/{id}`, permission: 'booking_groups.manage', handler: 'functions/booking-groups/update.ts', area, schemas: { path: groups.BookingGroupPath, body: groups.UpdateBookingGroupBody, response: groups.BookingGroupView } }),
  row({ operationId: 'deleteBookingGroup', method: 'DELETE', path: `${locationPath}/booking-groups/{id}`, permission: 'booking_groups.manage', handler: 'functions/booking-groups/delete.ts', area, schemas: { path: groups.BookingGroupPath, response: groups.BookingGroupView } }),
] as const;
