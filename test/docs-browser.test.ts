import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkip, launchBrowser, withScreenshot } from './helpers/browser.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';

const WAIT = { timeout: 15_000 };

describe('the reference page /docs in a real browser', { skip: browserSkip() }, () => {
  let gw: TestGateway;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const problems: string[] = [];
  const elsewhere: string[] = [];
  before(async () => {
    gw = await startTestGateway();
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    // Every file the page asks for must come from the gateway: it works offline, with no CDN.
    page.on('request', (r) => {
      if (!r.url().startsWith(gw.url) && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
  });
  after(async () => {
    await browser.close();
    await gw.close();
  });

  it('shows the Actions, their schemas and the webhooks from the gateway alone', (t) =>
    withScreenshot(t, page, async () => {
      await page.goto(`${gw.url}/docs`);
      assert.equal(await page.title(), 'Wirebird API reference');
      await page.getByText('Runs the Action the body names.').first().waitFor(WAIT);
      await page.getByText('SendBatchUSMSMessageRequest', { exact: true }).first().waitFor(WAIT);
      await page.getByText('message.receipt').first().waitFor(WAIT);
      // The admin API is listed under its tag, with the operation that makes a key.
      await page.getByText('/admin/accounts/{accountId}/keys').first().waitFor(WAIT);
      // Wirebird's word mark in the top bar, not Swagger's.
      const logo = page.locator('.topbar a img').first();
      await logo.waitFor(WAIT);
      assert.match((await logo.getAttribute('src')) ?? '', /^data:image\/svg\+xml;base64,/);
      assert.deepEqual(elsewhere, []);
      assert.deepEqual(problems, []);
    }));
});
