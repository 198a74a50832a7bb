import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  consoleLogin,
  flat,
  openInboxEvents,
  type ConsoleClient,
} from './helpers/console-client.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  approvedTemplate,
  cn,
  finalReceipts,
  registerBusinessPhone,
  sendAll,
  sentMessageId,
  templateAt,
} from './helpers/sending.js';

const inboxOf = (phone: string) => `/console/inbox?phone=${encodeURIComponent(phone)}`;

describe('console pages', () => {
  let gw: TestGateway;
  let admin: ConsoleClient;
  let tpl: string;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0 });
    admin = await consoleLogin(gw.url, gw.adminKey);
    tpl = await approvedTemplate(gw, 'Hi {1}');
    await registerBusinessPhone(gw);
  });
  after(() => gw.close());

  async function delivered(phone: string, text: string): Promise<string> {
    const session = await sendAll(gw, [
      { TemplateId: tpl, Target: [{ Phone: phone, TemplateParams: [text] }] },
    ]);
    await finalReceipts(gw, session, 1);
    // The simulator marks its inbox entry reported just after the receipt is applied: Clear
    // takes only reported entries, so the tests wait for that too.
    await eventually(async () => {
      const entries = await gw.store.searchInbox({ phone, limit: 10 });
      return entries.length > 0 && entries.every((e) => e.reported) ? true : undefined;
    }, `${phone}'s inbox entry marked reported`);
    return session;
  }

  it('escapes message text: markup in a message is shown, never run', async () => {
    await delivered(cn(51), '<script>alert(1)</script><img src=x onerror=alert(2)>');
    const business = {
      Content: JSON.stringify({ body: '*bold* _it_ ~gone~ <b onclick="x()">' }),
      To: cn(51),
    };
    await sentMessageId(gw, business);
    const page = await eventually(async () => {
      const p = await admin.get(inboxOf(cn(51)));
      return p.text.includes('<strong>bold</strong>') ? p : undefined;
    }, 'the business message in the inbox');
    assert.ok(!/<script>alert|<img src=x|<b onclick/.test(page.text));
    assert.match(
      page.text,
      /Hi &lt;script&gt;alert\(1\)&lt;\/script&gt;&lt;img src=x onerror=alert\(2\)&gt;/,
    );
    assert.match(
      page.text,
      /<strong>bold<\/strong> ?<em>it<\/em> ?<s>gone<\/s> &lt;b onclick=&quot;x\(\)&quot;&gt;/,
    );
    assert.match(page.text, /1 segment · GSM-7/);
    assert.match(
      page.text,
      /class="result ok">Success<\/span> · delivered \d+ (ms|s) after acceptance/,
    );
  });

  it('renders business messages by type: media cards, a location, a template with its parameters', async () => {
    const to = cn(52);
    const send = (Type: string, content: unknown) =>
      sentMessageId(gw, { To: to, Type, Content: JSON.stringify(content) });
    await send('image', { link: 'https://example.com/cat.jpg', caption: 'a *cat*' });
    await send('document', { id: 'media-77', filename: 'invoice.pdf' });
    await send('location', { latitude: 51.5007, longitude: -0.1246, name: 'Big Ben' });
    await send('template', {
      name: 'order_update',
      language: { code: 'en_US', policy: 'deterministic' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ada' },
            { type: 'text', text: 'A-17' },
          ],
        },
      ],
    });
    const page = await eventually(async () => {
      const p = await admin.get(inboxOf(to));
      return (p.text.match(/class="entry business"/g) ?? []).length === 4 ? p : undefined;
    }, 'four business messages');
    assert.match(
      page.text,
      /image<\/div>\s*<div><span class="link">https:\/\/example.com\/cat.jpg<\/span><\/div>\s*<p class="text">a <strong>cat<\/strong><\/p>/,
    );
    assert.match(page.text, /document · invoice.pdf<\/div>\s*<div>media id <code>media-77<\/code>/);
    assert.match(page.text, /<b>Big Ben<\/b>.*51\.500700, -0\.124600/s);
    assert.match(
      page.text,
      /template <b>order_update<\/b> · en_US.*<li>\{\{1\}\} = Ada<\/li><li>\{\{2\}\} = A-17<\/li>/s,
    );
  });

  it('searches by number or text, and clears what was reported', async () => {
    await delivered(cn(53), 'needle-in-haystack');
    const found = await admin.get('/console/inbox?q=needle-in');
    assert.match(found.text, new RegExp(`data-phone="\\${cn(53)}"`));
    assert.ok(!found.text.includes(`data-phone="${cn(51)}"`));
    const byNumber = await admin.get(`/console/inbox?q=${encodeURIComponent(cn(53).slice(-6))}`);
    assert.match(byNumber.text, /needle-in-haystack/);
    const twice = await admin.get('/console/inbox?q=a&q=b');
    assert.equal(twice.status, 400);
    assert.match(twice.text, /q must be given once/);
    const tooLong = await admin.get(`/console/inbox?q=${'x'.repeat(201)}`);
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.text, /q must be at most 200 characters/);
    const cleared = await admin.post('/console/inbox/clear');
    assert.match(cleared.location ?? '', /^\/console\/inbox\?cleared=[1-9]\d*$/);
    assert.deepEqual(await gw.store.searchInbox({ limit: 10 }), []);
    assert.match((await admin.get(cleared.location as string)).text, /entries cleared/);
  });

  it('lists templates by status and approves, rejects with a reason and disables them', async () => {
    const pending = await templateAt(gw, 0, 'Pending {1}');
    const list = await admin.get('/console/templates?status=0');
    assert.match(list.text, new RegExp(`id="template-${pending}" data-status="0"`));
    assert.ok(!list.text.includes(`id="template-${tpl}"`), 'approved ones are filtered out');
    const noReason = await admin.post(`/console/templates/${pending}/reject`, { reason: '' });
    assert.equal(noReason.status, 400);
    assert.match(noReason.text, /reason is required to reject a template/);
    const rejected = await admin.post(`/console/templates/${pending}/reject`, {
      reason: 'needs <opt-out>',
    });
    assert.equal(rejected.location, `/console/templates?done=rejected&id=${pending}`);
    const t = await gw.store.getTemplateById(pending);
    assert.deepEqual([t?.status, t?.errDesc], [3, 'needs <opt-out>']);
    assert.match((await admin.get('/console/templates?status=3')).text, /needs &lt;opt-out&gt;/);
    const again = await admin.post(`/console/templates/${pending}/approve`);
    assert.equal(again.status, 409, 'a state conflict, as the admin API answers it');
    assert.match(again.text, /approve is allowed from pending/);
    await admin.post(`/console/templates/${pending}/disable`);
    assert.equal((await gw.store.getTemplateById(pending))?.status, 4);
    assert.equal((await admin.get('/console/templates?status=7')).status, 400);
    assert.equal((await admin.post('/console/templates/UTANOPE/approve')).status, 404);
  });

  it('finds a session with its messages, route, segments, attempts and receipts', async () => {
    const session = await sendAll(gw, [
      {
        TemplateId: tpl,
        Target: [
          { Phone: cn(2), TemplateParams: ['x'] },
          { Phone: cn(54), TemplateParams: ['y'], UserId: 'u-54' },
        ],
      },
    ]);
    await finalReceipts(gw, session, 2);
    const page = await admin.get(`/console/sessions?id=${session}`);
    assert.match(page.text, /2 messages accepted/);
    assert.match(
      page.text,
      /Hi x<\/td><td>simulator<\/td><td>1<\/td>\s*<td>final<\/td>\s*<td>1<\/td><td><span class="result bad" ?>SubmitFail<\/span ?>\s*REJECTD/,
    );
    assert.match(
      page.text,
      /Hi y<\/td><td>simulator<\/td><td>1<\/td>\s*<td>final<\/td>\s*<td>1<\/td><td><span class="result ok" ?>Success<\/span ?>\s*DELIVRD.*u-54/s,
    );
    assert.match((await admin.get('/console/sessions?id=nope')).text, /No session or message nope/);
  });

  it('lists recent sessions, newest first, with totals per result, and counts on a session', async () => {
    const session = await delivered(cn(77), 'listed');
    const page = await admin.get('/console/sessions');
    assert.equal(page.status, 200);
    const rows = [...page.text.matchAll(/<tr data-session="([^"]+)">/g)].map((m) => m[1]);
    assert.equal(rows[0], session, 'the newest session first');
    assert.match(
      page.text,
      new RegExp(
        `data-session="${session}">.*?<td class="count Success">1</td><td class="count Fail">0</td>`,
      ),
    );
    const one = await admin.get(`/console/sessions?id=${session}`);
    assert.match(one.text, /<span class="count Success">Success <b>1<\/b><\/span>/);
    assert.match(one.text, /<span class="count pending">pending <b>0<\/b><\/span>/);
  });

  it('shows health: graphs as inline SVG, channel state and the queue', async () => {
    const page = await admin.get('/console/health');
    assert.equal(page.status, 200);
    assert.equal((page.text.match(/<svg viewBox/g) ?? []).length, 2);
    // One sample interval so far: each series is a dot until a second one makes it a line.
    assert.match(
      page.text,
      /<(polyline class="accepted" points="[\d., ]+"|circle class="accepted")/,
    );
    assert.match(page.text, /<(polyline|circle) class="delivered"/, 'the delivery rate is drawn');
    assert.match(
      page.text,
      /data-channel="simulator"><td>simulator<\/td><td><span class="state up">up<\/span>/,
    );
    assert.match(page.text, /Queue depth <b id="queue-depth">0<\/b>/);
    assert.match(page.text, /Oldest due <b id="oldest-due">—<\/b>/, 'nothing due: no age');
    // No WhatsApp phone nor webhook secret is configured here: not shown as bound to Meta.
    assert.match(
      page.text,
      /data-channel="whatsapp"><td>whatsapp<\/td><td><span class="state off">off<\/span><\/td><td colspan="4">not configured/,
    );
    // The y axis labels end left of the axis with room for "100%" (x ≥ its width, 4 characters).
    const labels = [
      ...page.text.matchAll(/<text x="(\d+)" y="\d+" text-anchor="end">([^<]+)<\/text>/g),
    ];
    assert.ok(
      labels.some(([, , t]) => t === '100%'),
      'the delivery rate axis tops at 100%',
    );
    for (const [, x, t] of labels)
      assert.ok(Number(x) >= 8 * (t as string).length, `"${t}" at x=${x}`);
  });

  it('streams new deliveries to an open inbox as server-sent events', async () => {
    const stream = await openInboxEvents(gw.url, admin.cookie);
    assert.equal(stream.contentType, 'text/event-stream; charset=utf-8');
    await delivered(cn(55), 'live <one>');
    const text = await stream.until(
      (t) => t.includes('"kind":"reported"'),
      'a delivered and a reported event',
    );
    stream.close();
    const events = text.split('\n\n').filter((e) => e.startsWith('event: entry'));
    const data = events.map(
      (e) =>
        JSON.parse(e.split('data: ')[1] as string) as { kind: string; phone: string; html: string },
    );
    assert.deepEqual(
      data.map((d) => [d.kind, d.phone]),
      [
        ['delivered', cn(55)],
        ['reported', cn(55)],
      ],
    );
    assert.match(flat(data[0]?.html ?? ''), /Hi live &lt;one&gt;/);
    assert.match(flat(data[1]?.html ?? ''), /class="result ok">Success/);
  });
});
