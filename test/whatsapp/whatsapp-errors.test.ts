import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { graphError, type GraphReply } from '../helpers/fake-graph.js';
import { cn, messageView, messageWhen, sentMessageId } from '../helpers/sending.js';
import { requestsTo, wamidOf, useWhatsAppGateway } from '../helpers/whatsapp.js';

type View = Awaited<ReturnType<typeof messageView>> & { UpstreamId: string; Attempts: number };

describe('WhatsApp channel: Graph API errors', () => {
  let next = 700;
  const ctx = useWhatsAppGateway({ timeoutMs: 300 });

  /** Sends one text message to a fresh number whose first answers are `replies`. */
  async function sendWith(...replies: GraphReply[]): Promise<{ to: string; messageId: string }> {
    const to = cn(next++);
    let left = [...replies];
    ctx.graph.responder = (r) => {
      if ((r.json as { to?: string } | undefined)?.to !== to) return undefined;
      const reply = left[0];
      left = left.slice(1);
      return reply;
    };
    const messageId = await sentMessageId(ctx.gw, { To: to });
    return { to, messageId };
  }

  for (const [name, reply] of [
    ['HTTP 500', graphError(500, 131000, '(#131000) Something went wrong')],
    ['HTTP 503', { status: 503, body: 'unavailable' }],
    ['HTTP 429', graphError(429, 4, '(#4) Application request limit reached')],
    ['the 130429 throughput error', graphError(400, 130429, '(#130429) Rate limit hit')],
  ] as const) {
    it(`retries after ${name} and then stores the wamid`, async () => {
      const { to, messageId } = await sendWith(reply);
      const wamid = await wamidOf(ctx.gw, messageId);
      const requests = requestsTo(ctx.graph, to);
      assert.equal(requests.length, 2, 'sent once more after the retryable failure');
      assert.deepEqual(requests[0]?.json, requests[1]?.json, 'the same request both times');
      const view = (await messageView(ctx.gw, messageId)) as View;
      assert.equal(view.UpstreamId, wamid);
      assert.equal(view.Attempts, 2);
      assert.equal(view.Status, 'accepted', 'sent to Meta; statuses come from the webhook');
    });
  }

  it('retries a slow answer (no answer within timeoutMs) and sends again', async () => {
    const late = { status: 200, body: { messages: [{ id: 'wamid.LATE' }] }, delayMs: 1500 };
    const { to, messageId } = await sendWith(late);
    // Meta may have sent the first: at-least-once, as docs/whatsapp.md says.
    assert.notEqual(await wamidOf(ctx.gw, messageId), 'wamid.LATE');
    assert.equal(requestsTo(ctx.graph, to).length, 2);
    assert.equal(((await messageView(ctx.gw, messageId)) as View).Attempts, 2);
  });

  for (const [code, title] of [
    [131047, 'Re-engagement message'],
    [131026, 'Message undeliverable'],
    [100, 'Invalid parameter'],
  ] as const) {
    it(`records ${code} (${title}) as a permanent failure with Meta's code and message`, async () => {
      const { to, messageId } = await sendWith(
        graphError(400, code, `(#${code}) ${title}`, 'details from Meta'),
      );
      const view = (await messageWhen(ctx.gw, messageId, 'failed')) as View;
      assert.equal(requestsTo(ctx.graph, to).length, 1, 'a permanent error is not retried');
      assert.equal(view.UpstreamId, '');
      const last = view.History.at(-1);
      assert.equal(last?.Status, 'failed');
      assert.equal(last.Code, String(code));
      assert.equal(last.Desc, `(#${code}) ${title}: details from Meta`);
    });
  }

  it('gives up after maxAttempts retryable failures, keeping the last error', async () => {
    const down = graphError(500, 131016, '(#131016) Service unavailable');
    const { to, messageId } = await sendWith(down, down, down);
    const view = (await messageWhen(ctx.gw, messageId, 'failed')) as View;
    assert.equal(requestsTo(ctx.graph, to).length, 3);
    assert.equal(view.History.at(-1)?.Code, '131016');
    assert.match(view.History.at(-1)?.Desc ?? '', /gave up after 3 attempts/);
  });
});
