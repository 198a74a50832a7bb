import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.WIREBIRD_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Whether the browser tests can run. In CI (CI or WIREBIRD_REQUIRE_BROWSER set) a missing
 * Chromium is a failure, never a silent skip; on a developer's machine the tests are skipped
 * with a notice saying how to get it.
 */
export function browserSkip(): string | false {
  if (existsSync(CHROMIUM)) return false;
  const why = `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set WIREBIRD_CHROMIUM)`;
  if (process.env.CI || process.env.WIREBIRD_REQUIRE_BROWSER)
    throw new Error(`the browser tests must run in CI: ${why}`);
  console.log(`NOTICE: browser tests skipped: ${why}`);
  return why;
}

/** Headless Debian Chromium with a fresh profile, kept off the network but for 127.0.0.1. */
export async function launchBrowser(): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  const profile = mkdtempSync(join(tmpdir(), 'wirebird-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Where a failing browser test leaves its screenshot (WIREBIRD_SCREENSHOTS to choose). */
export const SCREENSHOTS =
  process.env.WIREBIRD_SCREENSHOTS ?? join(tmpdir(), 'wirebird-screenshots');

/**
 * Runs a browser test's steps; when one fails, the page is photographed whole and the file named
 * in the failure itself, so the test's output says where to look.
 */
export async function withScreenshot(
  t: { name: string; diagnostic(message: string): void },
  page: Page,
  steps: () => Promise<void>,
): Promise<void> {
  try {
    await steps();
  } catch (err) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = join(SCREENSHOTS, `${t.name.replace(/[^\w-]+/g, '-').slice(0, 80)}.png`);
    const taken = await page.screenshot({ path: file, fullPage: true }).then(
      () => `screenshot: ${file}`,
      (shotErr: unknown) => `no screenshot: ${String(shotErr)}`,
    );
    t.diagnostic(taken);
    if (err instanceof Error) {
      // The reporters print the stack, which holds the message as it was when thrown.
      const note = `\n${taken} (page ${page.url()})`;
      err.stack = err.stack?.replace(err.message, err.message + note);
      err.message += note;
    }
    throw err;
  }
}
