/**
 * The docs page (shared/openapi/docsPage.ts, docs/docs-page.md) as text: it loads only what its own
 * stage serves, names a key for "try it" on the local stage only, and the script module it loads
 * (GET /docs/scalar.js) was made from the installed Scalar. test/api/docs-page.test.ts renders it.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scalarBundle, scriptModule, scriptModuleStamp } from '../../bin/tools/gen-docs-script';
import { loadConfig } from '../../shared/config';
import { docsPage, docsPageHtml } from '../../shared/openapi/docsPage';
import { scalarScript } from '../../shared/openapi/generated/scalar';

/** A synchronous invocation's response payload, at most (Lambda quotas). */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

const key = 'brigade_local_abcdefabcdef_not-a-secret';

describe('the docs page', () => {
  it('loads its script and the document from its own stage, by relative URL', () => {
    const page = docsPageHtml(undefined);
    expect([...page.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1])).toEqual(['docs/scalar.js']);
    expect(page).toContain("new URL('openapi.json', root)");
    expect(page).not.toMatch(/https?:\/\/|["'(]\/\//);
  });

  it('prefers the ApiKey scheme, and fills in a key only when it is given one', () => {
    expect(docsPageHtml(undefined)).toContain('"preferredSecurityScheme":"ApiKey"');
    expect(docsPageHtml(undefined)).not.toContain('securitySchemes');
    expect(docsPageHtml(key)).toContain(`"securitySchemes":{"ApiKey":{"value":"${key}"}}`);
  });

  it('is given a key on the local stage only, whatever the environment says elsewhere', () => {
    expect(loadConfig({ STAGE: 'local', DOCS_TRY_IT_KEY: key }).docsTryItKey).toBe(key);
    expect(loadConfig({ STAGE: 'dev', DOCS_TRY_IT_KEY: key }).docsTryItKey).toBeUndefined();
    expect(loadConfig({ STAGE: 'prod', DOCS_TRY_IT_KEY: key }).docsTryItKey).toBeUndefined();
    expect(loadConfig({ STAGE: 'local' }).docsTryItKey).toBeUndefined();
  });

  it('is answered under a policy that lets the browser load and send to its own origin only', () => {
    const policy = docsPage(undefined).headers['Content-Security-Policy'].split('; ');
    expect(policy).toEqual(
      expect.arrayContaining(["default-src 'self'", "connect-src 'self'", "script-src 'self' 'unsafe-inline'"]),
    );
    for (const directive of policy) expect(directive, directive).not.toMatch(/\*|https?:/);
  });

  it('writes no value that could end its script element', () => {
    const page = docsPageHtml('</script><script>alert(1)</script>');
    expect(page.match(/<\/script>/g)).toHaveLength(2);
  });
});

describe("the docs page's script module", () => {
  it('was made from the installed Scalar (run `npm run gen:operations` after updating @scalar/api-reference)', () => {
    const source = readFileSync(scriptModule, 'utf8');
    expect(source.slice(0, source.indexOf('\n'))).toBe(scriptModuleStamp());
  });

  it("holds Scalar's script as the package ships it, and its answer fits Lambda's 6 MB response payload", () => {
    expect(scalarScript()).toBe(scalarBundle().bytes.toString('utf8'));
    expect(scalarScript()).toContain('createApiReference');
    // what the function hands Lambda: the proxy result as JSON, the script escaped in it
    const answer = JSON.stringify({
      statusCode: 200,
      headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'X-Request-Id': randomUUID() },
      body: scalarScript(),
    });
    expect(Buffer.byteLength(answer)).toBeLessThan(LAMBDA_RESPONSE_LIMIT - 64 * 1024);
  });
});
