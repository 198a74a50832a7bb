import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeGraph, graphError } from './helpers/fake-graph.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { ManualTime } from './helpers/manual-time.js';
import {
  accountKey,
  approvedTemplate,
  cn,
  createTemplate,
  finalReceipts,
  sendMessage,
  sentMessageId,
  storedMessages,
} from './helpers/sending.js';
import {
  APP_SECRET,
  registerWhatsAppPhone,
  statusNotification,
  postWebhook,
  wamidOf,
} from './helpers/whatsapp.js';

interface Fallback {
  State: string;
  Reason: string;
  SessionNo?: string;
  Phone?: string;
}
interface Data {
  Status: string;
  History: { Status: string; Code: string }[];
  Fallback?: Fallback;
}

async function getMessage(gw: TestGateway, messageId: string): Promise<Data> {
  const { json } = await gw.api({ Action: 'GetMessage', AccountId: 1, MessageId: messageId });
  assert.equal(json.RetCode, 0, json.Message);
  return json.Data as Data;
}

/** The message once its fallback left `pending`. */
const settled = (gw: TestGateway, messageId: string) =>
  eventually(async () => {
    const data = await getMessage(gw, messageId);
    return data.Fallback && data.Fallback.State !== 'pending' ? data : undefined;
  }, `the fallback of ${messageId} to settle`);

describe('SMS fallback of business messages (WhatsApp, the clock moved)', () => {
  const time = new ManualTime(Date.now());
  let graph: FakeGraph;
  let gw: TestGateway;
  let code: string;
  before(async () => {
    graph = await FakeGraph.start();
    const whatsapp = { apiUrl: graph.url, appSecret: APP_SECRET, timeoutMs: 2000 };
    const config = { simDelayMs: 0, acceptThreads: 0, templateReview: 'manual', whatsapp };
    gw = await startTestGateway(
      { ...config, dispatch: { pollMs: 10, maxAttempts: 2 } },
      undefined,
      {
        clock: time,
        scheduler: time,
      },
    );
    await registerWhatsAppPhone(gw, { WindowGuard: undefined });
    code = await approvedTemplate(gw, 'Your code is {1}');
  });
  after(async () => {
    await gw.close();
    await graph.close();
  });

  const fallback = (extra: Record<string, unknown> = {}) => ({
    Fallback: { TemplateId: code, TemplateParams: ['4321'], ...extra },
  });

  it('outside the window: RetCode 0, the message fails as Meta would, the SMS goes at once', async () => {
    const json = await sendMessage(gw, { To: cn(700), ...fallback() });
    assert.equal(json.RetCode, 0, json.Message);
    const id = (json.Data as { MessageId: string }).MessageId;
    const data = await settled(gw, id);
    assert.equal(data.Status, 'failed');
    assert.equal(data.History.at(-1)?.Code, '131047');
    assert.equal(data.Fallback?.State, 'sent');
    assert.equal(data.Fallback.Phone, cn(700));
    assert.match(data.Fallback.Reason, /failed/);
    const sessionNo = data.Fallback.SessionNo ?? '';
    const [receipt] = await finalReceipts(gw, sessionNo, 1);
    assert.equal(receipt?.Phone, cn(700));
    assert.equal(graph.messageRequests().length, 0, 'nothing went to the Graph API');
  });

  it('on a Graph failure; never twice: a late delivered is recorded and sends nothing more', async () => {
    graph.answerNext('/messages', graphError(400, 131026, 'Message undeliverable'));
    const id = await sentMessageId(gw, {
      To: cn(701),
      ...fallback(),
      Type: 'template',
      Content: TEMPLATE,
    });
    await eventually(
      async () => ((await getMessage(gw, id)).Status === 'failed' ? true : undefined),
      'the failure',
    );
    // Fallbacks are looked for every second of the gateway's clock.
    await time.advance(1000);
    const data = await settled(gw, id);
    assert.equal(data.Fallback?.State, 'sent');
    const before = await storedMessages(gw);
    await time.advance(5000);
    assert.equal(await storedMessages(gw), before, 'the fallback fired once');
    assert.equal((await getMessage(gw, id)).Fallback?.SessionNo, data.Fallback.SessionNo);
  });

  it('after After seconds without delivered; a delivery in time cancels it', async () => {
    const late = await sentMessageId(gw, {
      To: cn(702),
      ...fallback({ After: 60 }),
      Type: 'template',
      Content: TEMPLATE,
    });
    const onTime = await sentMessageId(gw, {
      To: cn(703),
      ...fallback({ After: 60 }),
      Type: 'template',
      Content: TEMPLATE,
    });
    const wamid = await wamidOf(gw, onTime);
    const at = Math.floor(time.now() / 1000);
    await postWebhook(gw, statusNotification({ id: wamid, status: 'delivered', timestamp: at }));
    await time.advance(59_000);
    assert.equal((await getMessage(gw, late)).Fallback?.State, 'pending');
    await time.advance(1_000);
    const fired = await settled(gw, late);
    assert.equal(fired.Fallback?.State, 'sent');
    assert.match(fired.Fallback.Reason, /not delivered by its Fallback.After/);
    assert.equal((await settled(gw, onTime)).Fallback?.State, 'unneeded');
    const lateWamid = await wamidOf(gw, late);
    await postWebhook(
      gw,
      statusNotification({ id: lateWamid, status: 'delivered', timestamp: at + 61 }),
    );
    const after = await eventually(async () => {
      const d = await getMessage(gw, late);
      return d.Status === 'delivered' ? d : undefined;
    }, 'the late delivered');
    assert.deepEqual(after.Fallback, fired.Fallback, 'recorded, and nothing more was sent');
  });

  describe('refuses a bad Fallback, naming the field, storing nothing', () => {
    const cases: [string, unknown, RegExp][] = [
      ['not an object', 'T1', /^Fallback must be/],
      ['no TemplateId', { TemplateParams: [] }, /^Fallback\.TemplateId is required/],
      ['an unknown TemplateId', { TemplateId: 'nope' }, /^Fallback\.TemplateId nope not found/],
      [
        'After under 10',
        { After: 9 },
        /^Fallback\.After must be a whole number of seconds from 10 to 86400/,
      ],
      ['After over 86400', { After: 86_401 }, /^Fallback\.After must be/],
      ['After as a string', { After: '60' }, /^Fallback\.After must be an integer/],
      ['After as a fraction', { After: 60.5 }, /^Fallback\.After must be an integer/],
      ['an unknown field', { Afterr: 60 }, /^Fallback\.Afterr is not a field/],
      [
        'TemplateParams that do not fit',
        { TemplateParams: [] },
        /^Fallback\.TemplateParams has 0 values; the template needs 1/,
      ],
      [
        'an unregistered SenderId',
        { SenderId: 'NOPE' },
        /^Fallback\.SenderId NOPE is not registered/,
      ],
    ];
    for (const [what, value, message] of cases) {
      it(what, async () => {
        const before = await storedMessages(gw);
        const given =
          typeof value === 'object' &&
          value !== null &&
          !('TemplateId' in value) &&
          what !== 'no TemplateId'
            ? { TemplateId: code, TemplateParams: ['1'], ...value }
            : value;
        const json = await sendMessage(gw, { To: cn(710), Fallback: given });
        assert.notEqual(json.RetCode, 0);
        assert.match(json.Message, message);
        assert.equal(await storedMessages(gw), before);
      });
    }

    it('a template not approved, or of another account', async () => {
      const pending = await createTemplate(gw, 'Pending {1}');
      const json = await sendMessage(gw, {
        To: cn(711),
        ...fallback(),
        Fallback: { TemplateId: pending, TemplateParams: ['1'] },
      });
      assert.match(json.Message, /^Fallback\.TemplateId .* is not approved/);
      const key = await accountKey(gw, 2);
      const theirs = await approvedTemplate(gw, 'Theirs {1}', { accountId: 2, key });
      const other = await sendMessage(gw, {
        To: cn(711),
        Fallback: { TemplateId: theirs, TemplateParams: ['1'] },
      });
      assert.match(other.Message, /^Fallback\.TemplateId .* not found/);
    });
  });
});

const TEMPLATE = JSON.stringify({
  name: 'order',
  language: { code: 'en_US', policy: 'deterministic' },
});
