/**
 * The booking widget's script (docs/widget.md) as text: the module GET /widget/v1.js serves was
 * built from the current widget/src, it stays small, it names no other host (the widget loads
 * nothing but the API's answers), and widget/src type-checks against the browser's types (the root
 * tsconfig.json, Node's, leaves it out). test/api/widget.test.ts runs it in a browser.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { widgetBundle, widgetModule, widgetModuleSource } from '../../bin/tools/gen-widget';
import { widgetScript, widgetVersion } from '../../shared/widget/generated/widget';
import { pickLanguage } from '../../widget/src/i18n';
import { WIDGET_VERSION } from '../../widget/src/version';

/** The budget docs/widget.md promises, gzip-compressed. */
const MAX_GZIPPED = 30 * 1024;

describe("the widget's script module", () => {
  it('was built from the current widget/src (run `npm run gen:operations` after changing it)', async () => {
    expect(readFileSync(widgetModule, 'utf8')).toBe(await widgetModuleSource(await widgetBundle()));
  });

  it('names its full version, whose major the path /widget/v1.js carries', () => {
    expect(widgetVersion).toBe(WIDGET_VERSION);
    expect(WIDGET_VERSION).toMatch(/^1\.\d+\.\d+$/);
    expect(widgetScript()).toContain(`Brigade booking widget ${WIDGET_VERSION}`);
  });

  it(`is at most ${MAX_GZIPPED / 1024} KB gzip-compressed`, () => {
    const gzipped = gzipSync(widgetScript(), { level: 9 }).length;
    console.log(`widget script: ${widgetScript().length} bytes, ${gzipped} gzipped`);
    expect(gzipped).toBeLessThanOrEqual(MAX_GZIPPED);
  });

  it('names no absolute URL: everything it asks for is under the API base it was loaded from', () => {
    // scheme://host, and the protocol-relative //host a string could hold
    expect(widgetScript()).not.toMatch(/[a-z][a-z0-9+.-]*:\/\/|["'`(]\/\/[a-z0-9]/i);
    expect(widgetScript()).not.toMatch(/@import|@font-face|\burl\(/);
  });
});

describe('the widget source', () => {
  it("type-checks with the browser's types (widget/tsconfig.json)", () => {
    const file = fileURLToPath(new URL('../../widget/tsconfig.json', import.meta.url));
    const { config } = ts.readConfigFile(file, ts.sys.readFile) as { config: unknown };
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dirname(file));
    expect(parsed.fileNames.length).toBeGreaterThan(0);
    const problems = ts.getPreEmitDiagnostics(ts.createProgram(parsed.fileNames, parsed.options));
    expect(problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  }, 30_000);

  it('speaks Swedish to sv pages and English, in the page’s own English where it names one, to the rest', () => {
    expect(pickLanguage('sv').locale).toBe('sv-SE');
    expect(pickLanguage('sv-FI').locale).toBe('sv-SE');
    expect(pickLanguage('sv').t.book).toBe('Boka bordet');
    expect(pickLanguage('en-GB')).toMatchObject({ locale: 'en-GB', t: { book: 'Book the table' } });
    expect(pickLanguage('de').locale).toBe('en');
    expect(pickLanguage('').locale).toBe('en');
    expect(pickLanguage('svenska').locale).toBe('en');
    expect(pickLanguage('en-not a tag').locale).toBe('en');
  });
});
