/** Bookings (docs/bookings.md), their settings, tabs' orders and kitchen dispatches. */
import { Type, type Static } from './typebox';
import { bookingSettingsFields } from './bookingSettings';
import { bookingStatuses, dispatchStatuses, kitchenFlow, slotReasons, tabStatuses } from './bookingStates';
import { LocalDate, Nullable, NumericId, Uuid, pageQuery } from './common';
import { CONFIRMATION_PATTERN } from './confirmationCode';
import { CostCenter, Money, VatRate } from './items';
import { LocationPath, OperatingHours } from './locations';
import { Instant, entity, literals, stamps, view } from './views';
import { Line, Name, Prose } from './text';

export { LocationPath };

/** A booking holds at most this many tables (bounds the transaction that holds them, with their tabs and days). */
const MAX_BOOKING_TABLES = 8;

/** PUT booking settings: the fields to set (at least one), each with the bounds of the booking settings (docs/bookings.md). */
export const PutBookingSettingsBody = Type.Partial(
  Type.Object({ ...bookingSettingsFields, operatingHours: Nullable(OperatingHours) }),
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [
      {
        defaultDurationMinutes: 90,
        slotIntervalMinutes: 30,
        maxPartySize: 12,
        cancellationPolicyHours: 24,
        operatingHours: { friday: [{ open: '17:00', close: '23:30' }], saturday: [{ open: '12:00', close: '23:30' }] },
      },
    ],
  },
);

const date = LocalDate("YYYY-MM-DD, the location's local date (years to 9998)");
const wallTime = Type.String({
  pattern: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$',
  description: "HH:MM, the location's local wall time",
});
/** A nullable text field: one line (`Line`), a name (`Name`) or multi-line (`Prose`), without control characters (text.ts). */
const text = (maxLength: number, description?: string, kind: 'line' | 'name' | 'prose' = 'line') => {
  const options = { minLength: 1, maxLength, ...(description ? { description } : {}) };
  return Nullable(
    kind === 'name' ? Name(maxLength, options) : kind === 'prose' ? Prose(maxLength, options) : Line(options),
  );
};
const guestCount = Type.Integer({
  minimum: 0,
  maximum: 100,
  description: 'guests; 0 only for a walk-in seated at once (seatImmediately), whose party is not counted',
});
const tableId = Uuid;
const tableIds = Type.Array(Uuid, {
  uniqueItems: true,
  maxItems: MAX_BOOKING_TABLES,
  description: 'tables of the location; the first is the primary; replaces tableId',
});
const defaultTabStrategy = Type.Union([Type.Literal('single'), Type.Literal('per_resource')], {
  description: 'one tab for the booking, or one per table',
});
const money = Money;

/** What both create and update accept, with the same bounds. */
const editable = {
  bookingDate: date,
  startTime: wallTime,
  endTime: wallTime,
  guestCount,
  tableId,
  tableIds,
  defaultTabStrategy,
  occasion: text(100),
  specialRequests: text(1000, undefined, 'prose'),
  internalNotes: text(2000, 'staff only', 'prose'),
  paymentType: text(50),
  depositAmountCents: Nullable(money),
};

export const CreateBookingBody = Type.Object(
  {
    locationId: NumericId,
    bookingDate: editable.bookingDate,
    startTime: editable.startTime,
    endTime: Type.Optional(editable.endTime),
    timezone: Type.Optional(Line({ minLength: 1, maxLength: 64, description: "IANA zone; must be the location's" })),
    guestCount: editable.guestCount,
    tableId: Type.Optional(editable.tableId),
    tableIds: Type.Optional(editable.tableIds),
    defaultTabStrategy: Type.Optional(editable.defaultTabStrategy),
    primaryUserId: Type.Optional(Nullable(NumericId)),
    occasion: Type.Optional(editable.occasion),
    specialRequests: Type.Optional(editable.specialRequests),
    internalNotes: Type.Optional(editable.internalNotes),
    paymentType: Type.Optional(editable.paymentType),
    depositAmountCents: Type.Optional(editable.depositAmountCents),
    bookingSource: Type.Optional(text(50)),
    guestName: Type.Optional(text(200, undefined, 'name')),
    guestEmail: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    guestPhone: Type.Optional(text(40, "with the country code, or local in the location's country; stored as E.164")),
    seatImmediately: Type.Optional(Type.Boolean({ description: 'seat at once (a party at the door); needs a table' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        locationId: 101,
        bookingDate: '2026-12-18',
        startTime: '19:00',
        guestCount: 4,
        guestName: 'Ada Lovelace',
        guestPhone: '+46701234567',
        occasion: 'Birthday',
      },
      {
        locationId: 101,
        bookingDate: '2026-12-18',
        startTime: '20:15',
        guestCount: 2,
        tableIds: ['5b0e3c9d-2f4a-4c1e-9d7b-8a6f1e2d3c4b'],
        guestName: 'Walk-in',
        seatImmediately: true,
      },
    ],
  },
);

export const UpdateBookingBody = Type.Object(
  {
    bookingDate: Type.Optional(editable.bookingDate),
    startTime: Type.Optional(editable.startTime),
    endTime: Type.Optional(editable.endTime),
    guestCount: Type.Optional(editable.guestCount),
    tableId: Type.Optional(editable.tableId),
    tableIds: Type.Optional(editable.tableIds),
    defaultTabStrategy: Type.Optional(editable.defaultTabStrategy),
    occasion: Type.Optional(editable.occasion),
    specialRequests: Type.Optional(editable.specialRequests),
    internalNotes: Type.Optional(editable.internalNotes),
    paymentType: Type.Optional(editable.paymentType),
    depositAmountCents: Type.Optional(editable.depositAmountCents),
    confirmRemoveActiveTab: Type.Optional(Type.Boolean({ description: 'allow removing a table whose tab is open' })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ startTime: '19:30', guestCount: 5, specialRequests: 'High chair, please' }],
  },
);

export const BookingPath = Type.Object({ id: Uuid });

export const ListBookingsQuery = Type.Object({
  locationId: Type.Optional(NumericId),
  tableId: Type.Optional(Uuid),
  status: Type.Optional(Type.Union(bookingStatuses.map((s) => Type.Literal(s)))),
  bookingDate: Type.Optional(date),
  startDate: Type.Optional(date),
  endDate: Type.Optional(date),
  userId: Type.Optional(NumericId),
  confirmationCode: Type.Optional(Type.String({ pattern: CONFIRMATION_PATTERN.source })),
  bookingSource: Type.Optional(Line({ minLength: 1, maxLength: 50 })),
  ...pageQuery(100, 20),
});

export const BookingsByTableQuery = Type.Object({ date });

export const AvailabilityQuery = Type.Object({
  date,
  partySize: Type.Integer({ minimum: 1, maximum: 100, description: 'guests' }),
  /** The booking group whose pool, schedule and settings to use. */
  bookingGroupId: Type.Optional(Uuid),
  /** The guest, whose limit of active bookings applies. */
  primaryUserId: Type.Optional(NumericId),
});

export const OptimizeQuery = Type.Object({ date });

export const OptimizeBody = Type.Object(
  { dryRun: Type.Optional(Type.Boolean({ default: true, description: 'answer the moves without making them' })) },
  { additionalProperties: false, examples: [{ dryRun: true }] },
);

export const CancelBookingBody = Type.Object(
  {
    reason: Type.Optional(Prose(500)),
    closeTab: Type.Optional(Type.Boolean({ default: true, description: "close the booking's tabs" })),
  },
  { additionalProperties: false, examples: [{ reason: 'The guest called to cancel', closeTab: true }] },
);

export const CodePath = Type.Object({
  code: Type.String({
    pattern: CONFIRMATION_PATTERN.source,
    description: '18 characters (8 for codes issued before), no look-alikes',
  }),
});

export const LockBookingBody = Type.Object(
  { locked: Type.Boolean() },
  { additionalProperties: false, examples: [{ locked: true }] },
);

export const SeatBookingBody = Type.Object(
  {
    tabId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: "one of the booking's tabs, or a tab of its location without a booking (walk-in, bar) to link",
      }),
    ),
    createTab: Type.Optional(
      Type.Boolean({ description: 'open a new tab for the primary guest and table instead of the pre-arrival one' }),
    ),
  },
  { additionalProperties: false, examples: [{}, { tabId: '8d2f6a1b-3c4e-4f5a-9b6c-7d8e9f0a1b2c' }] },
);

export const UnseatBookingBody = Type.Object(
  {
    reason: Type.Optional(Prose(500, { description: 'printed on the kitchen correction ticket when given' })),
  },
  { additionalProperties: false, examples: [{ reason: 'Seated at the wrong table' }] },
);

const orderLine = Type.Object(
  {
    itemId: Type.Optional(NumericId),
    // name and price are required without itemId (the domain says which line lacks them); with it, the item's unless given.
    name: Type.Optional(Name(200)),
    price: Type.Optional(money),
    vatRate: Type.Optional(VatRate),
    costCenter: Type.Optional(Nullable(CostCenter)),
    quantity: Type.Integer({ minimum: 1, maximum: 100 }),
    coursingId: Type.Optional(Uuid),
    modifications: Type.Optional(
      Type.Array(Type.Object({ name: Name(200), price: money }, { additionalProperties: false }), { maxItems: 20 }),
    ),
  },
  { additionalProperties: false },
);

/** An order placed on a tab, or a booking's pre-order (which replaces the one before it). */
export const OrderBody = Type.Object(
  { items: Type.Array(orderLine, { minItems: 1, maxItems: 100 }) },
  {
    additionalProperties: false,
    examples: [
      {
        items: [
          { itemId: 4711, quantity: 2, coursingId: '1e9a7c3b-5d2f-4a8e-b6c4-0f1d2e3a4b5c' },
          {
            name: 'Sparkling water',
            price: 4500,
            vatRate: 12,
            quantity: 1,
            modifications: [{ name: 'Lemon', price: 0 }],
          },
        ],
      },
    ],
  },
);

export const TabPath = Type.Object({ tabId: Uuid });

export const ListOrdersQuery = Type.Object(pageQuery(100, 20));

export const DispatchPath = Type.Object({ orderId: Uuid, dispatchId: Uuid });

export const UpdateDispatchBody = Type.Object(
  {
    status: Type.Union(
      kitchenFlow.slice(1).map((s) => Type.Literal(s)),
      { description: 'forward only; reversed comes only from unseating' },
    ),
  },
  { additionalProperties: false, examples: [{ status: 'preparing' }] },
);

// ---- Answers (the `data` of each operation's 200; docs/bookings.md) ----

const bookingStatus = literals(bookingStatuses);
const confirmationCode = Type.String({
  pattern: CONFIRMATION_PATTERN.source,
  description: '18 characters (8 for codes issued before), no look-alikes',
});
const shownText = Nullable(Type.String());

/** A tab of a booking as the booking shows it: the resource it serves and its status. */
const BookingTabView = entity('BookingTab', {
  id: Uuid,
  tableId: Nullable(Uuid),
  status: literals(tabStatuses),
});

/** A booking as staff see it (get, list, create, update and every lifecycle operation). */
export const BookingView = entity('Booking', {
  id: Uuid,
  locationId: NumericId,
  bookingDate: date,
  startTime: wallTime,
  endTime: wallTime,
  timezone: Type.String({ description: 'IANA zone of the location' }),
  startsAt: Instant,
  endsAt: Instant,
  guestCount,
  tableId: Nullable(Uuid),
  tableIds: Type.Array(Uuid, { maxItems: MAX_BOOKING_TABLES }),
  defaultTabStrategy,
  primaryUserId: Nullable(NumericId),
  guestName: shownText,
  guestEmail: Nullable(Type.String({ format: 'email' })),
  guestPhone: Nullable(Type.String({ description: 'E.164' })),
  occasion: shownText,
  specialRequests: shownText,
  internalNotes: shownText,
  paymentType: shownText,
  depositAmountCents: Nullable(money),
  bookingSource: shownText,
  status: bookingStatus,
  statusBeforeSeating: Nullable(bookingStatus),
  confirmationCode,
  locked: Type.Boolean({ description: 'pinned: the optimizer never moves it' }),
  tab: BookingTabView,
  tabs: Type.Array(BookingTabView, { minItems: 1, description: 'primary first' }),
  seatingOrderId: Nullable(Uuid),
  autoNoShowAt: Nullable(Instant),
  cancellationReason: shownText,
  seatedAt: Nullable(Instant),
  completedAt: Nullable(Instant),
  cancelledAt: Nullable(Instant),
  ...stamps,
});

/** Create answers the booking, with a warning when seating at once left something to the staff. */
export const CreatedBookingView = entity('CreatedBooking', {
  ...BookingView.properties,
  seatWarning: Type.Optional(Type.String()),
});
/** Cancel answers the booking, with a warning when a tab was left open. */
export const CancelledBookingView = entity('CancelledBooking', {
  ...BookingView.properties,
  tabWarning: Type.Optional(Type.String()),
});

/**
 * What anyone holding the confirmation code sees of the booking, and what a guest who booked
 * online is answered (docs/online-booking.md): no tables, notes, deposits or contact details.
 */
export const PublicBookingView = Type.Pick(
  BookingView,
  [
    'id',
    'confirmationCode',
    'locationId',
    'status',
    'bookingDate',
    'startTime',
    'endTime',
    'timezone',
    'startsAt',
    'endsAt',
    'guestCount',
    'guestName',
    'occasion',
    'specialRequests',
    'cancelledAt',
  ],
  { title: 'PublicBooking' },
);

export const BookingsByTableView = entity('BookingsByTable', {
  locationId: NumericId,
  date,
  tables: Type.Array(view({ tableId: Uuid, bookings: Type.Array(BookingView) }), {
    description: 'tables with bookings that day, each with its bookings by start time',
  }),
  unassigned: Type.Array(BookingView, { description: 'bookings of the day without a table' }),
});

const AvailabilitySlotView = entity('AvailabilitySlot', {
  time: wallTime,
  startsAt: Instant,
  endsAt: Instant,
  available: Type.Boolean(),
  reason: Type.Optional(literals(slotReasons, 'why the slot cannot be booked')),
  overbooked: Type.Optional(Type.Literal(true, { description: 'available only by the overbooking buffer' })),
});

export const AvailabilityView = entity('Availability', {
  locationId: NumericId,
  date,
  partySize: Type.Integer({ minimum: 1 }),
  bookingGroupId: Nullable(Uuid),
  timezone: Type.String(),
  slotIntervalMinutes: Type.Integer({ minimum: 1 }),
  durationMinutes: Type.Integer({ minimum: 1 }),
  slots: Type.Array(AvailabilitySlotView),
});

const seatHours = Type.Number({ minimum: 0 });
const OptimizeFiguresView = entity('OptimizeFigures', {
  movable: Type.Integer({ minimum: 0 }),
  withoutTables: Type.Integer({ minimum: 0 }),
  placedCovers: Type.Integer({ minimum: 0 }),
  sellableSeatHours: seatHours,
  oversizeSeatHours: seatHours,
});
const moveFields = { bookingId: Uuid, fromTableIds: Type.Array(Uuid), toTableIds: Type.Array(Uuid) };

export const OptimizeView = entity('OptimizeResult', {
  locationId: NumericId,
  date,
  dryRun: Type.Boolean(),
  moves: Type.Array(view(moveFields), { description: 'proposed (dry run) or made' }),
  notApplied: Type.Array(view({ ...moveFields, reason: Type.String() }), {
    description: 'moves that could not be made, and why',
  }),
  before: OptimizeFiguresView,
  after: OptimizeFiguresView,
  seed: Type.Integer({ description: 'the same floor and seed give the same moves' }),
});

/** A line of an order or a pre-order as stored (prices in minor units). */
export const OrderLineView = entity('OrderLine', {
  itemId: Nullable(NumericId),
  name: Type.String(),
  price: money,
  vatRate: Type.Optional(VatRate),
  costCenter: Type.Optional(Nullable(CostCenter)),
  quantity: Type.Integer({ minimum: 1 }),
  coursingId: Nullable(Uuid),
  modifications: Type.Array(view({ name: Type.String(), price: money })),
});

export const DispatchView = entity('Dispatch', {
  id: Uuid,
  coursingId: Nullable(Uuid),
  status: literals(dispatchStatuses),
  items: Type.Array(OrderLineView),
  updatedAt: Instant,
});

export const OrderView = entity('Order', {
  id: Uuid,
  tabId: Uuid,
  bookingId: Nullable(Uuid),
  locationId: NumericId,
  kind: literals(['order', 'pre_order'], "pre_order: the booking's pre-order, sent when it was seated"),
  items: Type.Array(OrderLineView),
  dispatches: Type.Array(DispatchView),
  extendedWaitingTime: Nullable(
    view(
      { delayInMinutes: Nullable(Type.Integer()), endsAt: Instant },
      'the extended waiting time running when the order was placed',
    ),
  ),
  ...stamps,
});

export const BookingListView = Type.Array(BookingView);
export const OrderListView = Type.Array(OrderView);

export const PreOrderView = entity('PreOrder', {
  bookingId: Uuid,
  tabId: Uuid,
  items: Type.Array(OrderLineView),
  seatingOrderId: Nullable(Uuid),
});

export type PutBookingSettingsBody = Static<typeof PutBookingSettingsBody>;
export type CreateBookingBody = Static<typeof CreateBookingBody>;
export type UpdateBookingBody = Static<typeof UpdateBookingBody>;
export type BookingPath = Static<typeof BookingPath>;
export type ListBookingsQuery = Static<typeof ListBookingsQuery>;
export type BookingsByTableQuery = Static<typeof BookingsByTableQuery>;
export type AvailabilityQuery = Static<typeof AvailabilityQuery>;
export type OptimizeQuery = Static<typeof OptimizeQuery>;
export type OptimizeBody = Static<typeof OptimizeBody>;
export type CancelBookingBody = Static<typeof CancelBookingBody>;
export type CodePath = Static<typeof CodePath>;
export type LockBookingBody = Static<typeof LockBookingBody>;
export type SeatBookingBody = Static<typeof SeatBookingBody>;
export type UnseatBookingBody = Static<typeof UnseatBookingBody>;
export type OrderBody = Static<typeof OrderBody>;
export type TabPath = Static<typeof TabPath>;
export type ListOrdersQuery = Static<typeof ListOrdersQuery>;
export type DispatchPath = Static<typeof DispatchPath>;
export type UpdateDispatchBody = Static<typeof UpdateDispatchBody>;
