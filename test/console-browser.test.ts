import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkip, launchBrowser, withScreenshot } from './helpers/browser.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { approvedTemplate, cn, finalReceipts, sendAll, templateAt } from './helpers/sending.js';

/** Bounded waits for the browser: conditions, never sleeps. */
const WAIT = { timeout: 15_000 };

describe('console in a real browser', { skip: browserSkip() }, () => {
  let gw: TestGateway;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const problems: string[] = [];
  /** The session of two messages (one Success, one Fail) that a test below sends. */
  let lastSession = '';

  /** The conversations of the page shown, each new to `seen`; answers how many. */
  async function pageOfConversations(seen: Set<string>): Promise<number> {
    const items = await page.locator('#conversations li').all();
    const phones = await Promise.all(
      items.map(async (li) => (await li.getAttribute('data-phone')) ?? ''),
    );
    for (const phone of phones) {
      assert.ok(!seen.has(phone), `${phone} was on an earlier page`);
      seen.add(phone);
    }
    return phones.length;
  }
  /** The page's scrolled width and the window's. */
  const widths = () =>
    page.evaluate<[number, number]>(
      '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
    );
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 50 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    // A script the CSP blocked, or one that threw, shows up here.
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
  });
  after(async () => {
    await browser.close();
    await gw.close();
  });

  it('logs in with the admin key', (t) =>
    withScreenshot(t, page, async () => {
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
    }));

  it('shows a message in the inbox as it is delivered, then its receipt', (t) =>
    withScreenshot(t, page, async () => {
      const tpl = await approvedTemplate(gw, 'Your code is {1}');
      await page.goto(`${gw.url}/console/inbox`);
      await page.locator('body[data-live=on]').waitFor(WAIT);
      const session = await sendAll(gw, [
        { TemplateId: tpl, Target: [{ Phone: cn(61), TemplateParams: ['<b>4321</b>'] }] },
      ]);
      const entry = page.locator('#entries li.entry', { hasText: 'Your code is <b>4321</b>' });
      await entry.waitFor(WAIT);
      await entry.locator('.result.ok', { hasText: 'Success' }).waitFor(WAIT);
      assert.match(await entry.locator('.meta').innerText(), /1 segment · GSM-7/);
      await page.locator('#conversations li', { hasText: cn(61) }).waitFor(WAIT);
      await finalReceipts(gw, session, 1);
    }));

  it('approves a template and rejects another with a reason', (t) =>
    withScreenshot(t, page, async () => {
      const first = await templateAt(gw, 0, 'First {1}');
      const second = await templateAt(gw, 0, 'Second {1}');
      await page.goto(`${gw.url}/console/templates?status=0`);
      await page.locator(`#template-${first} button`, { hasText: 'Approve' }).click();
      await page.getByText(`${first}: approved`).waitFor(WAIT);
      assert.equal((await gw.store.getTemplateById(first))?.status, 2);
      await page.goto(`${gw.url}/console/templates?status=0`);
      await page
        .locator(`#template-${second} input[name=reason]`)
        .fill('Promotions need an opt-out');
      await page.locator(`#template-${second} button`, { hasText: 'Reject' }).click();
      await page.getByText(`${second}: rejected`).waitFor(WAIT);
      const row = page.locator(`#template-${second}`);
      assert.equal(await row.locator('.status').textContent(), 'failed review');
      assert.equal(await row.locator('.reason').textContent(), 'Promotions need an opt-out');
    }));

  it('finds a session, and shows Health with its graphs', (t) =>
    withScreenshot(t, page, async () => {
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
      lastSession = session;
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
    }));

  it('lists recent sessions with their totals, and times receipts in whole seconds', (t) =>
    withScreenshot(t, page, async () => {
      await page.goto(`${gw.url}/console/sessions`);
      const row = page.locator(`table.recent tr[data-session="${lastSession}"]`);
      await row.waitFor(WAIT);
      const counts = async (k: string) => row.locator(`td.count.${k}`).textContent();
      assert.deepEqual(
        [await counts('Success'), await counts('Fail'), await counts('pending')],
        ['1', '1', '0'],
      );
      await page.goto(`${gw.url}/console/inbox?phone=${encodeURIComponent(cn(62))}`);
      const receipt = page.locator('#entries li.entry .receipt').first();
      assert.match(
        await receipt.innerText(),
        /receipt (within the second of acceptance|\d+ s after acceptance)/,
      );
    }));

  it('shows no WhatsApp bind where none is configured, and the whole rate axis', (t) =>
    withScreenshot(t, page, async () => {
      await page.goto(`${gw.url}/console/health`);
      const whatsapp = page.locator('tr[data-channel=whatsapp]');
      assert.match(await whatsapp.innerText(), /not configured/);
      // Every axis label lies inside its chart: none is clipped at the left edge.
      for (const chart of await page.locator('figure.chart svg').all()) {
        const box = await chart.boundingBox();
        for (const label of await chart.locator('text').all()) {
          const b = await label.boundingBox();
          assert.ok(box && b && b.x >= box.x - 0.5, `"${await label.textContent()}" is clipped`);
        }
      }
      assert.ok(await page.locator('figure.chart text', { hasText: '100%' }).count());
    }));

  it('pages the inbox 50 conversations at a time, newest first', (t) =>
    withScreenshot(t, page, async () => {
      const tpl = await approvedTemplate(gw, 'Paging {1}');
      const phones = Array.from({ length: 120 }, (_, i) => cn(3000 + i));
      await sendAll(gw, [
        { TemplateId: tpl, Target: phones.map((Phone) => ({ Phone, TemplateParams: ['x'] })) },
      ]);
      const total = await eventually(async () => {
        const all = await gw.store.inboxConversations({ limit: 1000 });
        return all.filter((c) => phones.includes(c.phone)).length === 120 ? all.length : undefined;
      }, '120 conversations delivered');
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${gw.url}/console/inbox`);
      const seen = new Set<string>();
      let shown = await pageOfConversations(seen);
      assert.equal(shown, 50);
      assert.equal(await page.locator('.pager a[rel=first]').count(), 0, 'first page: no Newest');
      const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
      assert.ok(height < 4000, `the first page is ${height} px tall`);
      while (await page.locator('.pager a[rel=next]').count()) {
        const from = new URL(page.url()).searchParams.get('before');
        await page.locator('.pager a[rel=next]').click();
        await page.waitForURL((url) => url.searchParams.get('before') !== from, {
          ...WAIT,
          waitUntil: 'domcontentloaded',
        });
        shown += await pageOfConversations(seen);
      }
      assert.equal(shown, total, 'every conversation once over the pages');
      assert.equal(seen.size, total);
      await page.locator('.pager a[rel=first]').click();
      await page.waitForURL(/\/console\/inbox$/, { ...WAIT, waitUntil: 'domcontentloaded' });
      assert.equal(await page.locator('#conversations li').count(), 50);
    }));

  it('fits the audit log in a 1280-px window, each time on one line', (t) =>
    withScreenshot(t, page, async () => {
      // A change with a long detail: every keyword of both lists.
      const keywords = ['STOP', 'QUIT', 'UNSUBSCRIBE', 'CANCEL', 'END', 'STOPALL', 'OPTOUT'];
      const changed = await gw.api({
        Action: 'UpdateOptOutSettings',
        AccountId: 1,
        OptOutKeywords: keywords,
        OptInKeywords: ['START', 'UNSTOP', 'SUBSCRIBE', 'YES'],
      });
      assert.equal(changed.json.RetCode, 0, changed.json.Message);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${gw.url}/console/audit`);
      assert.deepEqual(await widths(), [1280, 1280]);
      // The test's own tsconfig has no DOM types: the page runs this text.
      const lines = await page.evaluate<number>(`(() => {
        const range = document.createRange();
        range.selectNodeContents(document.querySelector('table.audit tbody td'));
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      })()`);
      assert.equal(lines, 1, 'the time is on one line');
    }));

  it('fits every page on a 390-px phone: nothing cut off, every link and button on screen', (t) =>
    withScreenshot(t, page, async () => {
      // A row with a button on each page that lists them: an opt-out, a webhook endpoint.
      await gw.api({ Action: 'CreateOptOut', AccountId: 1, Phones: [cn(71)] });
      await gw.api({
        Action: 'CreateWebhookEndpoint',
        AccountId: 1,
        Url: 'http://127.0.0.1:9/a-rather-long-path/of-a-receiver/that-goes-on',
      });
      const template = await approvedTemplate(gw, 'Your visit is at {1}');
      const later = Math.floor(Date.now() / 1000) + 3600;
      const Target = [{ Phone: cn(72), TemplateParams: ['a time given at some length'] }];
      const task = [{ TemplateId: template, Target }];
      await gw.api({
        Action: 'SendBatchUSMSMessage',
        AccountId: 1,
        TaskContent: task,
        SendAt: later,
      });
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of [
        'inbox',
        'templates',
        'sessions',
        `sessions?id=${lastSession}`,
        'held',
        'webhooks',
        'opt-outs',
        'policy',
        'keys',
        'health',
        'audit',
      ]) {
        await page.goto(`${gw.url}/console/${path}`);
        const [scroll, client] = await widths();
        assert.ok(
          scroll <= client,
          `/console/${path} is ${scroll} px wide on a ${client}-px screen`,
        );
        // Whole on the screen, not behind a table's or the navigation's scroll.
        const outside = await page.evaluate<string[]>(`
          [...document.querySelectorAll('header nav a, main button')]
            .filter((el) => {
              const r = el.getBoundingClientRect();
              return r.left < 0 || r.right > ${client} + 0.5;
            })
            .map((el) => el.textContent.trim())`);
        assert.deepEqual(outside, [], `/console/${path}: cut off at the edge`);
      }
      // Each card's cell says which column it is.
      await page.goto(`${gw.url}/console/keys`);
      const label = await page.evaluate<string>(
        `getComputedStyle(document.querySelector('table tbody td[data-label]'), '::before').content`,
      );
      assert.match(label, /^"\w[^"]*: "$/, `a cell's label: ${label}`);
      await page.setViewportSize({ width: 1280, height: 800 });
    }));

  it('a test phone answers from the reply box, and the reply joins its conversation', (t) =>
    withScreenshot(t, page, async () => {
      await page.goto(`${gw.url}/console/inbox?phone=${encodeURIComponent(cn(62))}`);
      await page.fill('form.reply input[name=to]', '10690001');
      await page.fill('form.reply input[name=text]', 'Got it, thanks');
      await page.click('form.reply button[type=submit]');
      await page.locator('#replied').waitFor(WAIT);
      const reply = page.locator('#entries li.reply', { hasText: 'Got it, thanks' });
      await reply.waitFor(WAIT);
      assert.match(
        await reply.locator('.meta').innerText(),
        /reply from \+8613800000062 to 10690001/,
      );
    }));

  it('/console/ leads to the inbox, and the login page says where the keys are', (t) =>
    withScreenshot(t, page, async () => {
      await page.goto(`${gw.url}/console/`);
      await page.waitForURL(/\/console\/inbox$/, WAIT);
      await page.goto(`${gw.url}/console/login`);
      const hint = await page.locator('.hint').innerText();
      assert.match(hint, /data\/admin\.key/);
      assert.match(hint, /data\/dev-account\.key/);
    }));

  it('ran without script errors or blocked resources', () => {
    assert.deepEqual(problems, []);
  });
});
