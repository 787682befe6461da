/**
 * A real browser for the API tests: Debian's Chromium (`apt-get install chromium`; `.ci/run`
 * installs it), driven by playwright-core, which downloads no browser of its own. The binary is
 * CHROMIUM_PATH, else /usr/bin/chromium. When it is missing the test fails, in one line saying how
 * to install it: it is not skipped.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const chromiumPath = (): string => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(
      `The browser tests need Chromium at ${executablePath}: install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH to its binary`,
    );
  }
  return chromium.launch({ executablePath, headless: true });
}
