/**
 * `npm run smoke -- <base-url> <admin-key>`: the README's booking evening, walked against any stage
 * (a deployed one, `https://<api-id>.execute-api.<region>.amazonaws.com/<stage>`, or the local one,
 * `http://127.0.0.1:3000`), one line per step; then what it created is removed. Exit 0 when every
 * step and the clean-up succeeded, 1 otherwise (docs/deploy.md "Check a stage").
 *
 * What stays: the evening's orders, purchases and review are the company's financial history, and
 * the API deletes none of them; they remain under the deleted location's id. The booking is
 * completed, not deleted (bookings are kept, as every booking is).
 */
import { DateTime } from 'luxon';

const TIMEZONE = 'Europe/Stockholm';
/** Booking hours 11:00-23:00 every day. */
const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    [{ open: '11:00', close: '23:00' }],
  ]),
);

interface Answer {
  status: number;
  body: { status?: string; data?: Record<string, unknown>; error?: { code?: string; message?: string } };
}

export interface SmokeOptions {
  baseUrl: string;
  key: string;
  /** Where each step's line goes (stdout by default). */
  print?: (line: string) => void;
}

export interface SmokeResult {
  ok: boolean;
  steps: { name: string; ok: boolean; detail: string }[];
}

class StepFailed extends Error {}

type Id = string | number;

export async function smoke({ baseUrl, key, print = (line) => console.log(line) }: SmokeOptions): Promise<SmokeResult> {
  const base = baseUrl.replace(/\/+$/, '');
  const steps: SmokeResult['steps'] = [];

  async function call(method: string, path: string, body?: unknown, credential = true): Promise<Answer> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(credential && { 'X-API-Key': key }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: Answer['body'] = {};
    try {
      parsed = JSON.parse(text) as Answer['body'];
    } catch {
      parsed = { error: { message: text.slice(0, 200) } };
    }
    return { status: response.status, body: parsed };
  }

  /** One step: the call, its answer checked, a line printed; a failure stops the evening. */
  async function step<T>(
    name: string,
    method: string,
    path: string,
    body: unknown,
    pick: (data: Record<string, unknown>) => T,
  ): Promise<T> {
    return checked(name, method, path, body, pick, true);
  }

  /** A probe (`/live`) answers its own body, not the envelope, and takes no credential. */
  async function checked<T>(
    name: string,
    method: string,
    path: string,
    body: unknown,
    pick: (data: Record<string, unknown>) => T,
    envelope: boolean,
  ): Promise<T> {
    const started = performance.now();
    let answer: Answer;
    try {
      answer = await call(method, path, body, envelope);
    } catch (err) {
      return fail(name, `${method} ${path}: ${(err as Error).message}`);
    }
    const ms = Math.round(performance.now() - started);
    if (answer.status >= 300 || (envelope && answer.body.status !== 'success')) {
      return fail(
        name,
        `${method} ${path} answered ${answer.status} ${answer.body.error?.code ?? ''} ${answer.body.error?.message ?? ''}`.trim(),
      );
    }
    const value = pick((envelope ? answer.body.data : answer.body) ?? {});
    steps.push({ name, ok: true, detail: String(value) });
    print(`ok   ${name.padEnd(34)} ${String(value).padEnd(12)} ${answer.status} in ${ms} ms`);
    return value;
  }

  function fail(name: string, detail: string): never {
    steps.push({ name, ok: false, detail });
    print(`FAIL ${name.padEnd(34)} ${detail}`);
    throw new StepFailed(detail);
  }

  const created: { location?: Id; table?: Id; booking?: Id } = {};
  let evening = true;
  print(`Smoke test of ${base}`);
  try {
    await checked('the stage is live', 'GET', '/live', undefined, (d) => d.status, false);
    const stamp = DateTime.now().toFormat('yyyyLLdd-HHmmss');
    created.location = await step(
      'create a location',
      'POST',
      '/api/v1/locations',
      // Booking hours every day: the booking below names no table, so it must lie within them.
      { name: `Smoke ${stamp}`, timezone: TIMEZONE, operatingHours: EVERY_DAY },
      (d) => d.id as Id,
    );
    created.table = await step(
      'add a table',
      'POST',
      `/api/v1/locations/${created.location}/tables`,
      { name: 'T1', minCapacity: 1, maxCapacity: 4 },
      (d) => d.id as Id,
    );
    const day = DateTime.now().setZone(TIMEZONE).plus({ days: 1 }).toISODate();
    const booking = {
      locationId: created.location,
      bookingDate: day,
      startTime: '19:00',
      guestCount: 2,
      guestName: 'Smoke',
    };
    const tab = await step('book tomorrow 19:00 for two', 'POST', '/api/v1/bookings', booking, (d) => {
      created.booking = d.id as Id;
      return (d.tab as { id: string }).id;
    });
    await step('seat the party', 'POST', `/api/v1/bookings/${created.booking}/seat`, {}, (d) => d.status);
    await step(
      'order the mains',
      'POST',
      `/api/v1/tabs/${tab}/orders`,
      { items: [{ name: 'Steak', price: 29000, quantity: 2, vatRate: 12 }] },
      (d) => d.id,
    );
    await step(
      'order the wine',
      'POST',
      `/api/v1/tabs/${tab}/orders`,
      { items: [{ name: 'Wine', price: 12000, quantity: 1, vatRate: 25 }] },
      (d) => d.id,
    );
    await step(
      'pay 400.00 (due after)',
      'POST',
      `/api/v1/tabs/${tab}/purchases`,
      { amount: 40000, paymentProvider: 'card' },
      (d) => (d.tab as { dueCents: number }).dueCents,
    );
    const purchase = await step(
      'pay the rest; the tab closes',
      'POST',
      `/api/v1/tabs/${tab}/purchases`,
      { amount: 30000, tip: 3000, paymentProvider: 'card' },
      (d) => {
        const status = (d.tab as { status: string }).status;
        if (status !== 'closed') fail('pay the rest; the tab closes', `the tab is ${status}`);
        return d.id as string;
      },
    );
    await step(
      'the guest reviews the visit',
      'POST',
      '/api/v1/reviews',
      { purchaseIntentId: purchase, rating: 5, reviewTags: ['service'] },
      (d) => d.rating,
    );
    await step('read the booking back', 'GET', `/api/v1/bookings/${created.booking}`, undefined, (d) => d.status);
  } catch (err) {
    if (!(err instanceof StepFailed)) throw err;
    evening = false;
  }

  // Clean up whatever was made, even after a failed step: the booking stops using the table, then
  // the table and the location go.
  let cleaned = true;
  const tidy = async (name: string, method: string, path: string, body?: unknown) => {
    try {
      await step(name, method, path, body, (d) => d.status ?? d.id ?? 'done');
    } catch (err) {
      if (!(err instanceof StepFailed)) throw err;
      cleaned = false;
    }
  };
  if (created.booking !== undefined) {
    const current = await call('GET', `/api/v1/bookings/${created.booking}`);
    const status = current.body.data?.status;
    if (status === 'seated')
      await tidy('clean up: complete the booking', 'POST', `/api/v1/bookings/${created.booking}/complete`, {});
    else if (status !== 'completed' && status !== 'cancelled')
      await tidy('clean up: cancel the booking', 'POST', `/api/v1/bookings/${created.booking}/cancel`, {});
  }
  if (created.table !== undefined)
    await tidy('clean up: delete the table', 'DELETE', `/api/v1/locations/${created.location}/tables/${created.table}`);
  if (created.location !== undefined) {
    await tidy('clean up: delete the location', 'DELETE', `/api/v1/locations/${created.location}`);
    const gone = await call('GET', `/api/v1/locations/${created.location}`);
    const detail = `GET /api/v1/locations/${created.location} answers ${gone.status}`;
    steps.push({ name: 'clean up: the location is gone', ok: gone.status === 404, detail });
    print(`${gone.status === 404 ? 'ok  ' : 'FAIL'} ${'clean up: the location is gone'.padEnd(34)} ${detail}`);
    if (gone.status !== 404) cleaned = false;
  }

  const ok = evening && cleaned;
  print(
    ok
      ? `Smoke test passed: ${steps.length} steps`
      : `Smoke test FAILED: ${steps.filter((s) => !s.ok).length} of ${steps.length} steps failed`,
  );
  return { ok, steps };
}

const invokedDirectly = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  const [baseUrl, key] = process.argv.slice(2);
  if (!baseUrl || !key) {
    console.error(
      'usage: npm run smoke -- <base-url> <admin-key>   (e.g. http://127.0.0.1:3000 and the key npm start prints)',
    );
    process.exit(2);
  }
  const { ok } = await smoke({ baseUrl, key });
  process.exit(ok ? 0 : 1);
}
