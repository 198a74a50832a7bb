import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  consoleLogin,
  loginResponse,
  openInboxEvents,
  type ConsoleClient,
} from './helpers/console-client.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  accountKey,
  approvedTemplate,
  cn,
  finalReceipts,
  sendAll,
  templateAt,
} from './helpers/sending.js';

describe('console: login, session and CSRF', () => {
  let gw: TestGateway;
  let admin: ConsoleClient;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0 });
    admin = await consoleLogin(gw.url, gw.adminKey);
  });
  after(() => gw.close());

  it('sends a visitor without a session to the login page, and refuses their posts', async () => {
    const page = await fetch(`${gw.url}/console/inbox`, { redirect: 'manual' });
    assert.equal(page.status, 303);
    assert.equal(page.headers.get('location'), '/console/login');
    const post = await fetch(`${gw.url}/console/inbox/clear`, {
      method: 'POST',
      redirect: 'manual',
    });
    assert.equal(post.status, 401);
    const login = await fetch(`${gw.url}/console/login`);
    assert.equal(login.status, 200);
    assert.match(await login.text(), /<input type="password" name="key"/);
  });

  it('sets an HttpOnly, SameSite=Strict cookie that does not carry the key', async () => {
    const res = await loginResponse(gw.url, gw.adminKey);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/console/inbox');
    const cookie = res.headers.get('set-cookie') ?? '';
    // @fastify/session's signed id: the random id, a dot, the URL-encoded HMAC.
    const parts =
      /^wirebird_console=[\w-]{32}\.[\w%-]+; Path=\/console; Expires=([^;]+); HttpOnly; SameSite=Strict$/.exec(
        cookie,
      );
    assert.ok(parts, cookie);
    const hours = (Date.parse(parts[1] ?? '') - Date.now()) / 3600_000;
    assert.ok(hours > 7.9 && hours <= 8, `the cookie lasts 8 hours, not ${hours}`);
    assert.ok(!cookie.includes(gw.adminKey));
    const page = await admin.get('/console/inbox');
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes(gw.adminKey), 'the key never appears in a page');
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
  });

  it('refuses a wrong key, and a tampered cookie', async () => {
    const wrong = await loginResponse(gw.url, 'wb_not-a-key');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('set-cookie'), null);
    assert.match(await wrong.text(), /That key is not valid\./);
    const [payload, signature] = admin.cookie.split('=')[1]?.split('.') ?? [];
    const forged = Buffer.from(
      JSON.stringify({ viewer: { role: 'admin' }, expiresAt: 9e15, nonce: 'x' }),
    ).toString('base64url');
    for (const value of [`${forged}.${signature}`, `${payload}.AAAA`, 'garbage']) {
      const res = await fetch(`${gw.url}/console/inbox`, {
        headers: { cookie: `wirebird_console=${value}` },
        redirect: 'manual',
      });
      assert.equal(res.status, 303, value);
    }
  });

  it('refuses a state-changing request without this session’s CSRF token or from another site', async () => {
    const other = await consoleLogin(gw.url, gw.adminKey);
    const tpl = await templateAt(gw, 0);
    const path = `/console/templates/${tpl}/approve`;
    assert.equal((await admin.post(path, {}, null)).status, 403);
    assert.equal((await admin.post(path, {}, other.csrf)).status, 403);
    assert.equal((await admin.post(path, {}, 'x'.repeat(43))).status, 403);
    const crossSite = await fetch(gw.url + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: admin.cookie,
        origin: 'http://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `_csrf=${admin.csrf}`,
    });
    assert.equal(crossSite.status, 403);
    assert.equal((await gw.store.getTemplateById(tpl))?.status, 0, 'nothing was approved');
    const ok = await admin.post(path);
    assert.equal(ok.status, 303);
    assert.equal((await gw.store.getTemplateById(tpl))?.status, 2);
  });

  it('logs out', async () => {
    const c = await consoleLogin(gw.url, gw.adminKey);
    const out = await c.post('/console/logout');
    assert.equal(out.status, 303);
    assert.equal(out.location, '/console/login');
  });

  it('shows an account only its own inbox, templates and sessions, and none of the admin pages', async () => {
    const key2 = await accountKey(gw, 2);
    const mine = await approvedTemplate(gw, 'Account one says {1}');
    const theirs = await approvedTemplate(gw, 'Account two says {1}', { accountId: 2, key: key2 });
    const s1 = await sendAll(gw, [
      { TemplateId: mine, Target: [{ Phone: cn(41), TemplateParams: ['one-secret'] }] },
    ]);
    const s2 = await sendAll(
      gw,
      [{ TemplateId: theirs, Target: [{ Phone: cn(42), TemplateParams: ['two-hello'] }] }],
      { accountId: 2, key: key2 },
    );
    await finalReceipts(gw, s1, 1);
    await eventually(async () => {
      const view = await gw.store.sessionView(s2, 2, 1);
      return view?.messages[0]?.state === 'final' ? true : undefined;
    }, 'the message of account 2 to be final');
    const two = await consoleLogin(gw.url, key2);
    const inbox = await two.get(`/console/inbox?phone=${encodeURIComponent(cn(42))}`);
    assert.match(inbox.text, /Account two says two-hello/);
    assert.match(inbox.text, /account 2/);
    assert.ok(!inbox.text.includes(cn(41)) && !inbox.text.includes('one-secret'));
    const peek = await two.get(`/console/inbox?phone=${encodeURIComponent(cn(41))}&q=one`);
    assert.ok(!peek.text.includes('one-secret'));
    const templates = await two.get('/console/templates');
    assert.ok(templates.text.includes(theirs) && !templates.text.includes(mine));
    assert.ok(!templates.text.includes('>Approve<'), 'an account does not review');
    assert.match((await two.get(`/console/sessions?id=${s1}`)).text, /No session or message/);
    assert.match((await two.get(`/console/sessions?id=${s2}`)).text, /two-hello/);
    assert.equal((await two.get('/console/health')).status, 403);
    assert.equal((await two.post(`/console/templates/${mine}/disable`)).status, 403);
    assert.equal((await gw.store.getTemplateById(mine))?.status, 2);
    // Clearing as account 2 leaves account 1's inbox alone.
    assert.equal((await two.post('/console/inbox/clear')).location, '/console/inbox?cleared=1');
    assert.match(
      (await admin.get(`/console/inbox?phone=${encodeURIComponent(cn(41))}`)).text,
      /one-secret/,
    );
  });

  it('streams an account only its own deliveries', async () => {
    const key3 = await accountKey(gw, 3);
    const three = await consoleLogin(gw.url, key3);
    const theirs = await approvedTemplate(gw, 'For three: {1}', { accountId: 3, key: key3 });
    const mine = await approvedTemplate(gw, 'For one: {1}');
    const events = await openInboxEvents(gw.url, three.cookie);
    await sendAll(gw, [
      { TemplateId: mine, Target: [{ Phone: cn(43), TemplateParams: ['not-yours'] }] },
    ]);
    await sendAll(
      gw,
      [{ TemplateId: theirs, Target: [{ Phone: cn(44), TemplateParams: ['yours'] }] }],
      {
        accountId: 3,
        key: key3,
      },
    );
    const text = await events.until((t) => t.includes('For three: yours'), 'account 3’s delivery');
    events.close();
    assert.ok(!text.includes('not-yours') && !text.includes(cn(43)), text);
  });
});
