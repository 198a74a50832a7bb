import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeGsm7 } from '../../src/domain/segments/segments.js';
import type { SmscSim } from '../../src/smsc-sim/smsc-sim.js';
import { eventually, type TestGateway } from '../helpers/gateway.js';
import { gatewayWithSmsc } from '../helpers/smpp.js';

const MESSAGES = 10_000;

/** A seeded shuffle, so a failure can be run again exactly. */
function shuffle<T>(list: T[], seed = 42): T[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}

/** 10,000 two-part replies, parts in any order and 5 % of them twice: each stored and pushed once. */
describe('a flood of concatenated replies over SMPP', () => {
  let gw: TestGateway;
  let sim: SmscSim;
  let close: () => Promise<void>;
  before(async () => {
    ({ gw, sim, close } = await gatewayWithSmsc(
      {},
      {},
      { inboundPartsWaitS: 600, webhooks: { allowPrivate: true } },
    ));
  });
  after(() => close());

  it('ends with exactly 10,000 inbound messages and 10,000 events', async () => {
    const { json } = await gw.api({
      Action: 'CreateWebhookEndpoint',
      AccountId: 1,
      // Nothing listens there: the events are counted in the store, not delivered.
      Url: 'http://127.0.0.1:9/none',
      EventTypes: ['message.inbound'],
    });
    assert.equal(json.RetCode, 0, json.Message);
    const parts = Array.from({ length: MESSAGES }, (_, i) => {
      const from = `86138${String(i).padStart(8, '0')}`;
      const part = (seq: number) => ({
        source_addr: from,
        destination_addr: '10690001',
        esm_class: 0x40,
        data_coding: 0,
        // A 16-bit reference (IEI 8), as long replies carry when the 8-bit ones run out.
        short_message: Buffer.concat([
          Buffer.from([6, 8, 4, (i >> 8) & 0xff, i & 0xff, 2, seq]),
          Buffer.from(encodeGsm7(seq === 1 ? `reply ${i} ` : 'ends')),
        ]),
      });
      return [part(1), part(2)];
    }).flat();
    const twice = parts.filter((_, i) => i % 20 === 0);
    const flood = shuffle([...parts, ...twice]);
    for (const p of flood) sim.sendReply(p);
    await eventually(
      async () => (sim.stats.receiptsAcked >= flood.length ? true : undefined),
      `${flood.length} deliver_sm answered`,
      120_000,
    );
    let stored = 0;
    let before: number | undefined;
    const texts = new Set<string>();
    do {
      const page = await gw.store.listInbound({
        accountId: 1,
        limit: 1000,
        ...(before ? { before } : {}),
      });
      stored += page.messages.length;
      for (const m of page.messages) texts.add(m.body);
      before = page.nextCursor;
    } while (before);
    assert.equal(stored, MESSAGES, 'each reply stored once');
    assert.equal(texts.size, MESSAGES);
    assert.ok(texts.has('reply 1234 ends'), 'reassembled in order');
    let events = 0;
    let cursor: { eventId: number; endpointId: string } | undefined;
    do {
      const page = await gw.store.listDeliveries({
        accountId: 1,
        limit: 1000,
        ...(cursor ? { before: cursor } : {}),
      });
      events += page.deliveries.filter((d) => d.type === 'message.inbound').length;
      cursor = page.nextCursor;
    } while (cursor);
    assert.equal(events, MESSAGES, 'one message.inbound event each');
  });
});
