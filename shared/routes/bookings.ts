import * as bookings from '../schemas/bookings';
import { BookingSettingsView } from '../schemas/bookingSettings';
import { row } from './route';

const area = 'bookings';
const settingsPath = '/api/v1/locations/{locationId}/booking-settings';
const bookingPath = '/api/v1/bookings/{id}';

export const bookingsRoutes = [
  row({ operationId: 'getBookingSettings', method: 'GET', path: settingsPath, permission: 'bookings.read', handler: 'functions/booking-settings/get.ts', area, schemas: { path: bookings.LocationPath, response: BookingSettingsView } }),
  row({ operationId: 'putBookingSettings', method: 'PUT', path: settingsPath, permission: 'bookings.manage', handler: 'functions/booking-settings/put.ts', area, schemas: { path: bookings.LocationPath, body: bookings.PutBookingSettingsBody, response: BookingSettingsView } }),

  row({ operationId: 'listBookings', method: 'GET', path: '/api/v1/bookings', permission: 'bookings.read', handler: 'functions/bookings/list.ts', area, schemas: { query: bookings.ListBookingsQuery, response: bookings.BookingListView } }),
  row({ operationId: 'createBooking', method: 'POST', path: '/api/v1/bookings', permission: 'bookings.create', handler: 'functions/bookings/create.ts', area, schemas: { body: bookings.CreateBookingBody, response: bookings.CreatedBookingView } }),
  row({ operationId: 'getBooking', method: 'GET', path: bookingPath, permission: 'bookings.read', handler: 'functions/bookings/get.ts', area, schemas: { path: bookings.BookingPath, response: bookings.BookingView } }),
  row({ operationId: 'updateBooking', method: 'PATCH', path: bookingPath, permission: 'bookings.update', handler: 'functions/bookings/update.ts', area, schemas: { path: bookings.BookingPath, body: bookings.UpdateBookingBody, response: bookings.BookingView } }),
  row({ operationId: 'getAvailability', method: 'GET', path: '/api/v1/locations/{locationId}/availability', permission: 'bookings.read', handler: 'functions/bookings/availability.ts', area, schemas: { path: bookings.LocationPath, query: bookings.AvailabilityQuery, response: bookings.AvailabilityView } }),
  row({ operationId: 'optimizeBookings', method: 'POST', path: '/api/v1/locations/{locationId}/bookings/optimize', permission: 'bookings.manage', handler: 'functions/bookings/optimize.ts', area, schemas: { path: bookings.LocationPath, query: bookings.OptimizeQuery, body: bookings.OptimizeBody, response: bookings.OptimizeView } }),
  row({ operationId: 'listBookingsByTable', method: 'GET', path: '/api/v1/locations/{locationId}/bookings/by-table', permission: 'bookings.read', handler: 'functions/bookings/by-table.ts', area, schemas: { path: bookings.LocationPath, query: bookings.BookingsByTableQuery, response: bookings.BookingsByTableView } }),

  row({ operationId: 'confirmBooking', method: 'POST', path: `${bookingPath}/confirm`, permission: 'bookings.manage', handler: 'functions/bookings/confirm.ts', area, schemas: { path: bookings.BookingPath, response: bookings.BookingView } }),
  row({ operationId: 'checkInBooking', method: 'POST', path: `${bookingPath}/check-in`, permission: 'bookings.manage', handler: 'functions/bookings/check-in.ts', area, schemas: { path: bookings.BookingPath, response: bookings.BookingView } }),
  row({ operationId: 'completeBooking', method: 'POST', path: `${bookingPath}/complete`, permission: 'bookings.manage', handler: 'functions/bookings/complete.ts', area, schemas: { path: bookings.BookingPath, response: bookings.BookingView } }),
  row({ operationId: 'markBookingNoShow', method: 'POST', path: `${bookingPath}/no-show`, permission: 'bookings.manage', handler: 'functions/bookings/no-show.ts', area, schemas: { path: bookings.BookingPath, response: bookings.BookingView } }),
  row({ operationId: 'cancelBooking', method: 'POST', path: `${bookingPath}/cancel`, permission: 'bookings.manage', handler: 'functions/bookings/cancel.ts', area, schemas: { path: bookings.BookingPath, body: bookings.CancelBookingBody, response: bookings.CancelledBookingView } }),
  row({ operationId: 'cancelBookingByCode', method: 'POST', path: '/api/v1/bookings/by-code/{code}/cancel', permission: null, handler: 'functions/bookings/cancel-by-code.ts', area, schemas: { path: bookings.CodePath, response: bookings.PublicBookingView } }),
  row({ operationId: 'lockBooking', method: 'PATCH', path: `${bookingPath}/lock`, permission: 'bookings.manage', handler: 'functions/bookings/lock.ts', area, schemas: { path: bookings.BookingPath, body: bookings.LockBookingBody, response: bookings.BookingView } }),
  row({ operationId: 'seatBooking', method: 'POST', path: `${bookingPath}/seat`, permission: 'bookings.manage', handler: 'functions/bookings/seat.ts', area, schemas: { path: bookings.BookingPath, body: bookings.SeatBookingBody, response: bookings.BookingView } }),
  row({ operationId: 'unseatBooking', method: 'POST', path: `${bookingPath}/unseat`, permission: 'bookings.manage', handler: 'functions/bookings/unseat.ts', area, schemas: { path: bookings.BookingPath, body: bookings.UnseatBookingBody, response: bookings.BookingView } }),
  row({ operationId: 'splitBookingTabs', method: 'POST', path: `${bookingPath}/split-tabs`, permission: 'bookings.manage', handler: 'functions/bookings/split-tabs.ts', area, schemas: { path: bookings.BookingPath, response: bookings.BookingView } }),
  row({ operationId: 'getPreOrder', method: 'GET', path: `${bookingPath}/pre-order`, permission: 'bookings.read', handler: 'functions/bookings/get-pre-order.ts', area, schemas: { path: bookings.BookingPath, response: bookings.PreOrderView } }),
  row({ operationId: 'setPreOrder', method: 'POST', path: `${bookingPath}/pre-order`, permission: 'bookings.update', handler: 'functions/bookings/set-pre-order.ts', area, schemas: { path: bookings.BookingPath, body: bookings.OrderBody, response: bookings.PreOrderView } }),

  row({ operationId: 'listTabOrders', method: 'GET', path: '/api/v1/tabs/{tabId}/orders', permission: 'orders.read', handler: 'functions/orders/list.ts', area, schemas: { path: bookings.TabPath, query: bookings.ListOrdersQuery, response: bookings.OrderListView } }),
  row({ operationId: 'createTabOrder', method: 'POST', path: '/api/v1/tabs/{tabId}/orders', permission: 'orders.manage', handler: 'functions/orders/create.ts', area, schemas: { path: bookings.TabPath, body: bookings.OrderBody, response: bookings.OrderView } }),
  row({ operationId: 'updateOrderDispatch', method: 'PATCH', path: '/api/v1/orders/{orderId}/dispatches/{dispatchId}', permission: 'orders.manage', handler: 'functions/orders/update-dispatch.ts', area, schemas: { path: bookings.DispatchPath, body: bookings.UpdateDispatchBody, response: bookings.OrderView } }),
] as const;
