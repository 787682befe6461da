/**
 * The booking widget (docs/widget.md) in a real browser (Debian's Chromium through playwright-core,
 * test/support/browser.ts) against the suite's local stage. A restaurant's page, served by a small
 * static server of the test's own on 127.0.0.1, loads GET /widget/v1.js from the stage and holds
 * `<brigade-booking>` with a publishable key for that origin alone. A guest books (keyboard), sees
 * the code, follows the manage link, changes the time and cancels; a full time takes them to the
 * waitlist, staff offer a table over the API, and the guest accepts it in the widget; the same page
 * reached as http://localhost (an origin the key does not allow) shows an error and books nothing.
 * Every step passes axe-core with no violation, and no request goes anywhere but to the page's
 * origin and the stage's.
 *
 * Screenshots of the steps go to .local/widget/ (git-ignored); with WIDGET_SCREENSHOTS=1 to
 * docs/widget/, the ones docs/widget.md and the README show.
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { call, devKeys } from '../support/http';
import { admin, dayAhead, every } from './bookings-helpers';
import { newLocation, newTable } from './setup-helpers';

const shots = new URL(
  process.env.WIDGET_SCREENSHOTS === '1' ? '../../docs/widget/' : '../../.local/widget/',
  import.meta.url,
).pathname;
const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{18}$/;
/** The guest's dates: far enough ahead to be inside the window whatever the hour, the location the file's own. */
const bookDate = dayAhead(20);
const fullDate = dayAhead(21);
const refusedDate = dayAhead(22);
const swedishDate = dayAhead(23);

describe('the booking widget, in a browser', () => {
  let browser: Browser | undefined;
  let server: Server;
  let pageOrigin: string;
  let refusedOrigin: string;
  let locationId: number;
  let tableId: string;
  let publishableKey: string;
  const apiOrigin = new URL(devKeys().baseUrl).origin;
  /** Every request a page made, and every error its script threw. */
  const requests: string[] = [];
  const problems: string[] = [];
  /** Requests that went anywhere but the pages' origins and the stage's (data: and blob: never leave the browser). */
  const elsewhere = () =>
    requests.filter(
      (url) => !/^(data|blob):/.test(url) && ![pageOrigin, refusedOrigin, apiOrigin].includes(new URL(url).origin),
    );

  /** The restaurant's page: the embed snippet of docs/widget.md, in a page that passes axe on its own. */
  const restaurantPage = (lang: string) => `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Bistro Brigade</title>
<script src="${devKeys().baseUrl}/widget/v1.js" defer></script>
<style>body{font-family:Georgia,serif;margin:0;padding:12px 16px;background:#faf7f2}h1{font-size:1.6rem;margin:.2rem 0 1rem}</style>
</head>
<body><main><h1>Bistro Brigade</h1>
<brigade-booking location="${locationId}" key="${publishableKey}"></brigade-booking>
</main></body></html>`;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/favicon.ico') return void res.writeHead(204).end();
      const lang = new URL(req.url ?? '/', 'http://page').searchParams.get('lang') ?? 'en-GB';
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(restaurantPage(lang));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    pageOrigin = `http://127.0.0.1:${port}`;
    refusedOrigin = `http://localhost:${port}`;

    const location = await newLocation('Bistro Brigade');
    locationId = location.id;
    tableId = (await newTable(locationId, { name: 'W1', minCapacity: 1, maxCapacity: 4 })).id;
    const settings = await call('PUT', `/api/v1/locations/${locationId}/booking-settings`, {
      key: admin(),
      // times every half hour, two hours each, none kept between: a booking at 19:00 fills 17:30-20:30
      body: {
        maxAdvanceDays: 60,
        maxPartySize: 4,
        slotIntervalMinutes: 30,
        defaultDurationMinutes: 120,
        bufferMinutes: 0,
        operatingHours: every('17:00', '23:00'),
      },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    // the only table taken 19:00-21:00: the times from 17:30 to 20:30 are full for any party
    const taken = await call('POST', '/api/v1/bookings', {
      key: admin(),
      body: {
        locationId,
        bookingDate: fullDate,
        startTime: '19:00',
        endTime: '21:00',
        timezone: 'Europe/Stockholm',
        guestCount: 2,
        tableIds: [tableId],
        guestName: 'Walk In',
      },
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const key = await call('POST', '/api/v1/api-keys', {
      key: admin(),
      body: { name: 'Widget test', publishable: true, allowedOrigins: [pageOrigin], locationIds: [locationId] },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    publishableKey = key.body.data.key;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /**
   * A guest's browser: a phone-sized window, its own language, and a time zone far from the
   * location's (times must show in the location's, docs/widget.md).
   */
  async function open(path = '/', locale = 'en-GB', origin = pageOrigin): Promise<{ page: Page; widget: Locator }> {
    const context: BrowserContext = await browser!.newContext({
      viewport: { width: 480, height: 760 },
      locale,
      timezoneId: 'America/New_York',
    });
    const page = await context.newPage();
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${origin}${path}`);
    const widget = page.locator('brigade-booking');
    await widget.getByRole('heading', { level: 2 }).waitFor();
    return { page, widget };
  }

  /** axe-core's violations on the page (the widget's step and the page around it), as readable lines. */
  async function violations(page: Page): Promise<string[]> {
    const found = await new AxeBuilder({ page }).analyze();
    return found.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  /** The step is accessible (axe) and is saved as docs/widget/<name>.png. */
  async function step(page: Page, name: string): Promise<void> {
    expect(await violations(page), name).toEqual([]);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: `${shots}${name}.png` });
  }

  /** The heading of the step the guest is on, which holds the focus once they moved on. */
  const focusedHeading = (page: Page): Promise<string> =>
    page.locator('brigade-booking').evaluate((element) => {
      const focused = element.shadowRoot?.activeElement;
      return focused?.tagName === 'H2' ? focused.textContent : `not a heading: ${focused?.outerHTML}`;
    });

  /** The key's way to press a button or follow a link: focus it, press Enter. */
  async function press(target: Locator): Promise<void> {
    await target.focus();
    await target.press('Enter');
  }

  const byCode = async (code: string) => (await call('GET', `/api/v1/bookings/by-code/${code}`)).body.data;

  /** Party and date, then the times: Enter in the form sends it. */
  async function search(widget: Locator, partySize: string, date: string): Promise<void> {
    await widget.getByLabel('Number of guests').selectOption(partySize);
    await widget.getByLabel('Date').fill(date);
    await widget.getByLabel('Date').press('Enter');
    await widget.getByRole('heading', { name: 'Choose a time' }).waitFor();
  }

  it('books a table from the keyboard, then changes its time and cancels it through the manage link', async () => {
    const { page, widget } = await open();
    // the script's full version; the path it was loaded from carries the major
    expect(await page.evaluate("customElements.get('brigade-booking').version")).toMatch(/^1\.\d+\.\d+$/);
    await widget.getByRole('heading', { name: 'Book a table at Bistro Brigade' }).waitFor();
    await step(page, 'form');

    await search(widget, '2', bookDate);
    expect(await focusedHeading(page)).toBe('Choose a time');
    // the location's wall times (Europe/Stockholm), not the browser's (America/New_York)
    await widget.getByText("Times are in the restaurant's time zone (Europe/Stockholm).").waitFor();
    await step(page, 'times');

    await press(widget.getByRole('button', { name: '18:00', exact: true }));
    await widget.getByRole('heading', { name: 'Your details' }).waitFor();
    expect(await focusedHeading(page)).toBe('Your details');
    await widget.getByLabel('Name').fill('Ada Lovelace');
    // neither email nor phone: said in words, not sent
    await widget.getByLabel('Name').press('Enter');
    await widget.getByText('Enter an email address or a phone number.').waitFor();
    expect(await widget.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await widget.getByLabel('Email').fill('ada@example.com');
    await widget.getByText('Enter an email address or a phone number.').waitFor({ state: 'detached' });
    expect(await widget.getByLabel('Email').getAttribute('aria-invalid')).toBe('false');
    await widget.getByLabel('Occasion (optional)').fill('Birthday');
    await step(page, 'details');
    await widget.getByLabel('Email').press('Enter');

    await widget.getByRole('heading', { name: 'Your table is booked' }).waitFor();
    expect(await focusedHeading(page)).toBe('Your table is booked');
    const code = (await widget.locator('.code').textContent())!.trim();
    expect(code).toMatch(CODE);
    expect(await byCode(code)).toMatchObject({
      locationId,
      status: 'confirmed',
      bookingDate: bookDate,
      startTime: '18:00',
      guestCount: 2,
      occasion: 'Birthday',
    });
    const manage = widget.getByRole('link', { name: 'Manage your booking' });
    expect(await manage.getAttribute('href')).toBe(`${pageOrigin}/#brigade-booking=${code}`);
    await step(page, 'confirmation');

    await press(manage);
    await widget.getByRole('heading', { name: 'Your booking' }).waitFor();
    await widget.getByText('Confirmed').waitFor();
    await step(page, 'manage');

    await press(widget.getByRole('button', { name: 'Change time' }));
    await widget.getByRole('heading', { name: 'Change your booking' }).waitFor();
    await search(widget, '3', bookDate);
    await press(widget.getByRole('button', { name: '20:00', exact: true }));
    await widget.getByText('Your booking has been changed.').waitFor();
    expect(await focusedHeading(page)).toBe('Your booking');
    expect(await byCode(code)).toMatchObject({ status: 'confirmed', startTime: '20:00', guestCount: 3 });
    await step(page, 'changed');

    await press(widget.getByRole('button', { name: 'Cancel booking' }));
    await widget.getByRole('heading', { name: 'Cancel this booking?' }).waitFor();
    await step(page, 'cancel');
    await press(widget.getByRole('button', { name: 'Yes, cancel it' }));
    await widget.getByText('Your booking has been cancelled.').waitFor();
    expect((await byCode(code)).status).toBe('cancelled');

    // a fresh visit to the manage link (the page's address now) shows the booking as it now is
    expect(page.url()).toBe(`${pageOrigin}/#brigade-booking=${code}`);
    await page.reload();
    await widget.getByText('Cancelled', { exact: true }).waitFor();
    expect(problems).toEqual([]);
    expect(elsewhere()).toEqual([]);
    await page.context().close();
  });

  it('takes a full time to the waitlist; staff offer a table and the guest accepts it in the widget', async () => {
    const { page, widget } = await open();
    await search(widget, '2', fullDate);
    for (const free of ['17:00', '21:00']) await widget.getByRole('button', { name: free, exact: true }).waitFor();
    expect(await widget.getByRole('button', { name: /Full, join the waitlist$/ }).count()).toBe(7);
    await step(page, 'times-full');
    await press(widget.getByRole('button', { name: '19:00 Full, join the waitlist', exact: true }));
    await widget.getByRole('heading', { name: 'Join the waitlist' }).waitFor();
    await widget.getByLabel('Name').fill('Wim Waiting');
    await widget.getByLabel('Phone').fill('+46701234567');
    await step(page, 'waitlist');
    await widget.getByLabel('Phone').press('Enter');

    await widget.getByRole('heading', { name: 'You are on the waitlist' }).waitFor();
    const code = (await widget.locator('.code').textContent())!.trim();
    expect(code).toMatch(CODE);
    const link = widget.getByRole('link', { name: 'See your waitlist place' });
    expect(await link.getAttribute('href')).toBe(`${pageOrigin}/#brigade-waitlist=${code}`);
    await step(page, 'waitlist-joined');

    // staff: the entry, offered the table after the walk-in
    const list = await call('GET', `/api/v1/booking-waitlist?locationId=${locationId}&date=${fullDate}`, {
      key: admin(),
    });
    const entry = list.body.data.find((e: { code: string }) => e.code === code);
    expect(entry).toMatchObject({ status: 'waiting', partySize: 2, windowStart: '19:00', guestPhone: '+46701234567' });
    const offered = await call('POST', `/api/v1/booking-waitlist/${entry.id}/offer`, {
      key: admin(),
      body: { tableIds: [tableId], startTime: '21:30', endTime: '23:00', holdMinutes: 30 },
    });
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);

    await press(link);
    await widget.getByRole('heading', { name: 'Your waitlist place' }).waitFor();
    await widget.getByText('You have been offered a table').waitFor();
    await widget.getByText(/^A table for you: .* 21:30\. The offer holds until .*\d\d:\d\d\.$/).waitFor();
    await step(page, 'offer');

    await press(widget.getByRole('button', { name: 'Accept the table' }));
    await widget.getByRole('heading', { name: 'Your table is booked' }).waitFor();
    const bookingCode = (await widget.locator('.code').textContent())!.trim();
    expect(bookingCode).toMatch(CODE);
    expect(await byCode(bookingCode)).toMatchObject({ bookingDate: fullDate, startTime: '21:30', guestCount: 2 });
    await step(page, 'offer-accepted');
    expect(problems).toEqual([]);
    expect(elsewhere()).toEqual([]);
    await page.context().close();
  });

  it('leaves the waitlist from its manage link', async () => {
    const { page, widget } = await open();
    await search(widget, '2', fullDate);
    await press(widget.getByRole('button', { name: '19:30 Full, join the waitlist', exact: true }));
    await widget.getByLabel('Name').fill('Lea Leaving');
    await widget.getByLabel('Email').fill('lea@example.com');
    await widget.getByLabel('Email').press('Enter');
    await widget.getByRole('heading', { name: 'You are on the waitlist' }).waitFor();
    const code = (await widget.locator('.code').textContent())!.trim();
    await press(widget.getByRole('link', { name: 'See your waitlist place' }));
    await widget.getByText('Waiting for a table').waitFor();
    await press(widget.getByRole('button', { name: 'Leave the waitlist' }));
    await widget.getByText('You have left the waitlist.').waitFor();
    expect(await focusedHeading(page)).toBe('Your waitlist place');
    const entry = await call('GET', `/api/v1/booking-waitlist/by-code/${code}`);
    expect(entry.body.data).toMatchObject({ code, status: 'left' });
    expect(await widget.getByRole('button').count()).toBe(0);
    expect(problems).toEqual([]);
    expect(elsewhere()).toEqual([]);
    await page.context().close();
  });

  it('on a page whose origin the key does not allow, says it cannot reach the service, and nothing is booked', async () => {
    const { page, widget } = await open('/', 'en-GB', refusedOrigin);
    await widget.getByText('Could not reach the booking service.', { exact: false }).waitFor();
    await step(page, 'refused-origin');
    // the booking itself, sent from that page as the widget would: the browser gets no answer it may read
    const sent = await page.evaluate(
      async ({ url, key, body }) => {
        try {
          await fetch(url, {
            method: 'POST',
            headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          });
          return 'answered';
        } catch (error) {
          return String(error);
        }
      },
      {
        url: `${devKeys().baseUrl}/api/v1/online/bookings`,
        key: publishableKey,
        body: {
          locationId,
          bookingDate: refusedDate,
          startTime: '18:00',
          guestCount: 2,
          guestName: 'Eve Elsewhere',
          guestEmail: 'eve@example.com',
        },
      },
    );
    expect(sent).toMatch(/TypeError/);
    const booked = await call('GET', `/api/v1/bookings?locationId=${locationId}&bookingDate=${refusedDate}`, {
      key: admin(),
    });
    expect(booked.status).toBe(200);
    expect(booked.body.data).toEqual([]);
    expect(elsewhere()).toEqual([]);
    await page.context().close();
  });

  it("takes the page's theme through its custom properties, and nothing else of the page's CSS", async () => {
    const { page, widget } = await open();
    const button = widget.getByRole('button', { name: 'Show available times' });
    await button.waitFor();
    await page.addStyleTag({
      content: `main { --brigade-accent: #7a1f2b; --brigade-radius: 2px; }
        button { background: lime !important; }`,
    });
    // inherited from an ancestor into the shadow root; the page's own button rule does not reach in
    const style = (property: string) =>
      page.evaluate(
        `getComputedStyle(document.querySelector('brigade-booking').shadowRoot.querySelector('button')).${property}`,
      );
    expect(await style('backgroundColor')).toBe('rgb(122, 31, 43)');
    expect(await style('borderTopLeftRadius')).toBe('2px');
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });

  it('speaks Swedish on a Swedish page, dates and times in Swedish too', async () => {
    const { page, widget } = await open('/?lang=sv', 'sv-SE');
    await widget.getByRole('heading', { name: 'Boka bord på Bistro Brigade' }).waitFor();
    await widget.getByLabel('Antal gäster').selectOption('2');
    await widget.getByLabel('Datum').fill(swedishDate);
    await widget.getByLabel('Datum').press('Enter');
    await widget.getByRole('heading', { name: 'Välj en tid' }).waitFor();
    const weekday = new Intl.DateTimeFormat('sv-SE', { weekday: 'long', timeZone: 'UTC' }).format(
      Date.parse(`${swedishDate}T12:00Z`),
    );
    await widget.getByText(new RegExp(`^2 gäster, ${weekday} `)).waitFor();
    await widget.getByRole('button', { name: '18:00', exact: true }).waitFor();
    await step(page, 'sv-times');
    expect(problems).toEqual([]);
    expect(elsewhere()).toEqual([]);
    await page.context().close();
  });
});
