/**
 * GET /docs in a real browser (Debian's Chromium through playwright-core, test/support/browser.ts)
 * against the suite's local stage: the page renders Scalar's reference of the stage's own OpenAPI
 * document with no console error (a request its Content-Security-Policy refused would be one) and
 * no request to any other origin; its sidebar lists exactly the
 * operations of the route table; and "try it" on list locations sends the seeded key the page fills
 * in and gets 200, shown in the page. A screenshot of the answered request goes to
 * .local/docs-page.png (git-ignored), for a human to look at.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type Route } from '../../shared/routes';
import { launchChromium } from '../support/browser';
import { company, devKeys } from '../support/http';

const screenshot = new URL('../../.local/docs-page.png', import.meta.url).pathname;
/** A sidebar entry of an operation: `data-sidebar-id="api-1/tag/<tag>/<METHOD>/<path>"`. */
const operationEntry = /\/tag\/[^/]+\/(GET|POST|PUT|PATCH|DELETE)(\/.*)$/;

describe('the docs page, in a browser', () => {
  let browser: Browser | undefined;
  let page: Page;
  /** Every request the page made (and web socket it opened), and the problems it logged. */
  const requests: string[] = [];
  const problems: string[] = [];
  /** Requests that left the stage: any but its origin's, and data: and blob: URLs, which never leave the browser. */
  const elsewhere = () =>
    requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== new URL(devKeys().baseUrl).origin);
  /** The page's Content-Security-Policy: the browser itself refuses what the page may not load or send. */
  let policy: string | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('request', (request) => requests.push(request.url()));
    page.on('websocket', (socket) => requests.push(socket.url()));
    page.on('console', (message) => void (message.type() === 'error' && problems.push(`console: ${message.text()}`)));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // Straight to list locations: Scalar renders the sections near the one in view.
    const answer = await page.goto(`${devKeys().baseUrl}/docs#tag/setup/GET/api/v1/locations`);
    policy = answer?.headers()['content-security-policy'];
    await page.getByRole('button', { name: /Test Request.*\(get \/api\/v1\/locations\)/ }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders the reference from its own stage: the script and the document, nothing from elsewhere, no errors', async () => {
    // Scalar's root, and the document's title in its heading: the page rendered what the stage described
    await page.locator('.scalar-api-reference').waitFor({ state: 'visible' });
    await page.getByRole('heading', { name: 'Brigade API', level: 1 }).waitFor({ state: 'visible' });
    expect(elsewhere()).toEqual([]);
    expect(requests.map((url) => new URL(url).pathname)).toEqual(
      expect.arrayContaining(['/docs', '/docs/scalar.js', '/openapi.json']),
    );
    expect(policy).toContain("connect-src 'self'");
    expect(problems).toEqual([]);
  });

  it('lists every operation of the route table, each once', async () => {
    const sidebar = page.getByRole('complementary', { name: 'Sidebar for Brigade API' });
    const ids = await sidebar
      .locator('li[data-sidebar-id]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-sidebar-id')!));
    const listed = ids.flatMap((id) => {
      const match = operationEntry.exec(id);
      return match ? [`${match[1]} ${match[2]}`] : [];
    });
    expect(listed.sort()).toEqual((routes as readonly Route[]).map((r) => `${r.method} ${r.path}`).sort());
  });

  it('"try it" on list locations sends the seeded key and shows the 200', async () => {
    await page.getByRole('button', { name: /Test Request.*\(get \/api\/v1\/locations\)/ }).click();
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/locations');
    await page.getByRole('button', { name: /Send get request to .*\/api\/v1\/locations/ }).click();
    const response = await answered;
    expect(response.request().headers()['x-api-key']).toBe(company(1).keys.admin);
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { data: { id: number }[] };
    expect(body.data.map((l) => l.id)).toEqual(expect.arrayContaining(company(1).locations.map((l) => l.locationId)));
    await page.getByText('200 OK', { exact: true }).waitFor({ state: 'visible' });
    mkdirSync(dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot });
    expect(elsewhere()).toEqual([]);
    expect(problems).toEqual([]);
  });
});
