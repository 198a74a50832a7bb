import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkip, launchBrowser } from './helpers/browser.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { approvedTemplate, cn, finalReceipts, sendAll, templateAt } from './helpers/sending.js';

/** Bounded waits for the browser: conditions, never sleeps. */
const WAIT = { timeout: 15_000 };

describe('console in a real browser', { skip: browserSkip() }, () => {
  let gw: TestGateway;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const problems: string[] = [];
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 50 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    // A script the CSP blocked, or one that threw, shows up here.
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
  });
  after(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('logs in with the admin key', async () => {
    await page.goto(`${gw.url}/console`);
    assert.equal(new URL(page.url()).pathname, '/console/login');
    await page.fill('input[name=key]', 'wb_wrong');
    await page.click('button[type=submit]');
    await page.getByText('That key is not valid.').waitFor(WAIT);
    // That 401 was the point; anything after it is a problem.
    problems.length = 0;
    await page.fill('input[name=key]', gw.adminKey);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/console\/inbox$/, WAIT);
    assert.equal(await page.locator('.who').textContent(), 'admin');
  });

  it('shows a message in the inbox as it is delivered, then its receipt', async () => {
    const tpl = await approvedTemplate(gw, 'Your code is {1}');
    await page.goto(`${gw.url}/console/inbox`);
    await page.locator('body[data-live=on]').waitFor(WAIT);
    const session = await sendAll(gw, [
      { TemplateId: tpl, Target: [{ Phone: cn(61), TemplateParams: ['<b>4321</b>'] }] },
    ]);
    const entry = page.locator('#entries li.entry', { hasText: 'Your code is <b>4321</b>' });
    await entry.waitFor(WAIT);
    await entry.locator('.result.ok', { hasText: 'Success' }).waitFor(WAIT);
    assert.match((await entry.locator('.meta').innerText()) ?? '', /1 segment · GSM-7/);
    await page.locator('#conversations li', { hasText: cn(61) }).waitFor(WAIT);
    await finalReceipts(gw, session, 1);
  });

  it('approves a template and rejects another with a reason', async () => {
    const first = await templateAt(gw, 0, 'First {1}');
    const second = await templateAt(gw, 0, 'Second {1}');
    await page.goto(`${gw.url}/console/templates?status=0`);
    await page.locator(`#template-${first} button`, { hasText: 'Approve' }).click();
    await page.getByText(`${first}: approved`).waitFor(WAIT);
    assert.equal((await gw.store.getTemplateById(first))?.status, 2);
    await page.goto(`${gw.url}/console/templates?status=0`);
    await page.locator(`#template-${second} input[name=reason]`).fill('Promotions need an opt-out');
    await page.locator(`#template-${second} button`, { hasText: 'Reject' }).click();
    await page.getByText(`${second}: rejected`).waitFor(WAIT);
    const row = page.locator(`#template-${second}`);
    assert.equal(await row.locator('.status').textContent(), 'failed review');
    assert.equal(await row.locator('.reason').textContent(), 'Promotions need an opt-out');
  });

  it('finds a session, and shows Health with its graphs', async () => {
    const tpl = await approvedTemplate(gw, 'Order {1} shipped');
    const session = await sendAll(gw, [
      {
        TemplateId: tpl,
        Target: [
          { Phone: cn(62), TemplateParams: ['A-1'] },
          { Phone: cn(1), TemplateParams: ['A-2'] },
        ],
      },
    ]);
    await finalReceipts(gw, session, 2);
    await page.goto(`${gw.url}/console/sessions`);
    await page.fill('input[name=id]', session);
    await page.click('form.search button');
    await page.locator('section.session tbody tr').nth(1).waitFor(WAIT);
    assert.deepEqual(await page.locator('section.session .result').allTextContents(), [
      'Success',
      'Fail',
    ]);
    await page.goto(`${gw.url}/console/health`);
    assert.equal(await page.locator('figure.chart svg').count(), 2);
    assert.equal(
      await page.locator('tr[data-channel=simulator] .state').first().textContent(),
      'up',
    );
  });

  it('ran without script errors or blocked resources', () => {
    assert.deepEqual(problems, []);
  });
});
