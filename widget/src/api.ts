/**
 * What the widget asks the API (docs/widget.md, "What it calls"): the guest routes of
 * docs/bookings.md and docs/waitlist.md, under the API base the element was given. Answers are the
 * API's envelope (docs/conventions.md): `data` on success, `error` with a code and words otherwise.
 */

export interface Place {
  locationId: number;
  name: string;
  timezone: string;
  minPartySize: number;
  maxPartySize: number;
  /** Empty: any size from minPartySize to maxPartySize. */
  allowedPartySizes: number[];
  minAdvanceHours: number;
  maxAdvanceDays: number;
  confirmationMode: 'instant' | 'request_based';
}

export interface Slot {
  time: string;
  startsAt: string;
  available: boolean;
  waitlist: boolean;
}

export interface Availability {
  date: string;
  partySize: number;
  timezone: string;
  slots: Slot[];
}

export interface Booking {
  confirmationCode: string;
  locationId: number;
  status: string;
  bookingDate: string;
  startTime: string;
  timezone: string;
  startsAt: string;
  guestCount: number;
}

export interface WaitlistEntry {
  code: string;
  locationId: number;
  status: string;
  partySize: number;
  desiredDate: string;
  windowStart: string;
  offer: { bookingDate: string; startTime: string; timezone: string; startsAt: string; expiresAt: string } | null;
  booking?: {
    confirmationCode: string;
    status: string;
    bookingDate: string;
    startTime: string;
    timezone: string;
    guestCount: number;
  };
}

/**
 * A refused or failed call. `status` 0: no answer the page may read, which is also what the browser
 * makes of a refused origin (no CORS header, docs/widget.md "Origins").
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

type Body = Record<string, unknown>;

export class Api {
  constructor(
    private readonly base: URL,
    private readonly key: string,
  ) {}

  private async send<T>(method: string, path: string, body?: Body, keyed = true): Promise<T> {
    const headers: Record<string, string> = {};
    if (keyed) headers['X-API-Key'] = this.key;
    if (body) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(new URL(path, this.base), { method, headers, body: body && JSON.stringify(body) });
    } catch {
      throw new ApiError(0, 'UNREACHABLE', 'unreachable');
    }
    const answer = (await res.json().catch(() => undefined)) as
      | { status: 'success'; data: T }
      | { status: 'error'; error?: { code?: string; message?: string; details?: { message?: string }[] } }
      | undefined;
    if (res.ok && answer?.status === 'success') return answer.data;
    const error = answer?.status === 'error' ? answer.error : undefined;
    throw new ApiError(
      res.status,
      error?.code ?? 'UNEXPECTED',
      error?.message ?? res.statusText,
      (error?.details ?? []).flatMap((d) => (d.message ? [d.message] : [])),
    );
  }

  place = (id: string) => this.send<Place>('GET', `api/v1/online/locations/${id}`);

  availability = (id: string, date: string, partySize: number) =>
    this.send<Availability>('GET', `api/v1/online/locations/${id}/availability?date=${date}&partySize=${partySize}`);

  book = (body: Body) => this.send<Booking>('POST', 'api/v1/online/bookings', body);

  // By code: the code is the guest's credential (docs/access.md, "Codes"), no key is sent.
  booking = (code: string) => this.send<Booking>('GET', `api/v1/bookings/by-code/${code}`, undefined, false);
  change = (code: string, body: Body) => this.send<Booking>('PATCH', `api/v1/bookings/by-code/${code}`, body, false);
  cancel = (code: string) => this.send<Booking>('POST', `api/v1/bookings/by-code/${code}/cancel`, undefined, false);

  joinWaitlist = (body: Body) => this.send<WaitlistEntry>('POST', 'api/v1/online/waitlist', body);
  entry = (code: string) =>
    this.send<WaitlistEntry>('GET', `api/v1/booking-waitlist/by-code/${code}`, undefined, false);
  // leaving is DELETE …/leave in the route table (shared/routes/waitlist.ts), the answers POST
  answerEntry = (code: string, action: 'accept' | 'decline' | 'leave') =>
    this.send<WaitlistEntry>(
      action === 'leave' ? 'DELETE' : 'POST',
      `api/v1/booking-waitlist/by-code/${code}/${action}`,
      undefined,
      false,
    );
}
