/**
 * The API reference page GET /docs answers (docs/docs-page.md): Scalar's API reference over this
 * stage's own OpenAPI document. Everything it loads comes from the stage that serves it, by
 * relative URL, so the page works on the local stage and behind API Gateway's stage prefix alike:
 * the script from `docs/scalar.js`, the document from `openapi.json`. "Try it" sends its requests
 * to the same stage (same origin: no CORS), with the `ApiKey` scheme (X-API-Key) preferred.
 */
import { config } from '../config';

/**
 * Scalar's configuration, as the page passes it. `url` and `servers` are set in the browser from
 * the page's own address (the stage's root, with its prefix on API Gateway).
 */
function scalarConfiguration(tryItKey: string | undefined): Record<string, unknown> {
  return {
    authentication: {
      preferredSecurityScheme: 'ApiKey',
      // the local stage's seeded key, so "try it" answers 200 at once; no other stage names a key
      ...(tryItKey ? { securitySchemes: { ApiKey: { value: tryItKey } } } : {}),
    },
    // nothing from elsewhere: no web fonts, no request proxy (none is set), no telemetry, and none
    // of the parts that talk to Scalar's own services (the AI agent, MCP, the developer tools'
    // share and deploy menus)
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    hideClientButton: true,
    // every operation in the sidebar from the start
    defaultOpenAllTags: true,
  };
}

/**
 * What the page may load, for the browser to enforce: only what its own origin serves (its script,
 * the document, and "try it"'s requests: `connect-src 'self'`), its inline script and Scalar's
 * inline styles, images and fonts as data. A key pasted or filled in cannot be sent anywhere else.
 */
const docsPagePolicy = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** `<` escaped, so no value can close the script element it is written into. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The page; `tryItKey` (the local stage's only: `config().docsTryItKey`) is filled in for "try it".
 * In the browser, the stage's root is the page's folder: `http://127.0.0.1:3000/` locally,
 * `https://<api-id>.execute-api.<region>.amazonaws.com/<stage>/` on API Gateway.
 */
export function docsPageHtml(tryItKey: string | undefined): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Brigade API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="app"></div>
<script src="docs/scalar.js"></script>
<script>
  // the stage's root: the page's folder (with the stage's prefix on API Gateway)
  const root = new URL('.', location.href);
  Scalar.createApiReference('#app', Object.assign(${scriptJson(scalarConfiguration(tryItKey))}, {
    url: new URL('openapi.json', root).href,
    // the document's server is \`.\`: the page names the stage's root itself
    servers: [{ url: root.href.replace(/\\/$/, ''), description: 'this stage' }],
  }));
</script>
</body>
</html>
`;
}

/** GET /docs's answer: the page, with the key of this stage's "try it" (the local stage's only), under its policy. */
export const docsPage = (tryItKey: string | undefined = config().docsTryItKey) => ({
  body: docsPageHtml(tryItKey),
  headers: { 'Content-Security-Policy': docsPagePolicy },
});
