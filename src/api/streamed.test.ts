import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { StreamedArray, answerPayload } from './streamed.js';

async function* items<T>(...values: T[]): AsyncGenerator<T> {
  for (const v of values) yield v;
}

async function written(answer: Record<string, unknown>): Promise<string> {
  const payload = answerPayload(answer);
  assert.ok(payload instanceof Readable, 'a streamed answer is sent as a stream');
  return text(payload);
}

describe('answerPayload', () => {
  it('leaves an answer without a streamed field to Fastify, the same object', () => {
    const answer = { Action: 'XResponse', RetCode: 0, Data: [1, 2] };
    assert.equal(answerPayload(answer), answer);
  });

  it('writes the same JSON as the whole answer would be, elements read as it goes', async () => {
    const sessions = [
      { SessionNo: 's-1', ReceiptSet: [{ Phone: '+1 "quoted" \u2028', CostCount: 2 }] },
      { SessionNo: 's-2', ReceiptSet: [] },
    ];
    const out = await written({
      Action: 'GetUSMSSendReceiptResponse',
      RetCode: 0,
      Message: '',
      Data: new StreamedArray(() => items(...sessions)),
    });
    assert.deepEqual(JSON.parse(out), {
      Action: 'GetUSMSSendReceiptResponse',
      RetCode: 0,
      Message: '',
      Data: sessions,
    });
  });

  it('writes an empty array, a lone streamed field and several streamed fields', async () => {
    assert.equal(await written({ Data: new StreamedArray(() => items()) }), '{"Data":[]}');
    assert.equal(
      await written({
        A: new StreamedArray(() => items(1)),
        B: 'x',
        C: new StreamedArray(() => items({ n: 2 }, { n: 3 })),
      }),
      '{"B":"x","A":[1],"C":[{"n":2},{"n":3}]}',
    );
  });

  it('writes what has no JSON form as JSON.stringify does in an array: null', async () => {
    const odd = [1, undefined, () => 2, 3];
    const out = await written({ Data: new StreamedArray(() => items(...odd)) });
    assert.equal(out, JSON.stringify({ Data: odd }));
  });

  it('reads no further than the reader takes, but for an element or two', async () => {
    let read = 0;
    async function* counted() {
      for (let i = 0; i < 100; i++) {
        read++;
        yield { n: i, pad: 'x'.repeat(1000) };
      }
    }
    const payload = answerPayload({ Data: new StreamedArray(counted) }) as Readable;
    const taken: unknown[] = [];
    for await (const chunk of payload) {
      taken.push(chunk);
      if (taken.length === 3) break;
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(read <= 4, `${read} elements read for 3 chunks taken`);
  });

  it('does not read an element before the stream asks for it', async () => {
    const read: number[] = [];
    async function* counted() {
      for (let i = 0; i < 3; i++) {
        read.push(i);
        yield i;
      }
    }
    const payload = answerPayload({ Data: new StreamedArray(counted) });
    assert.deepEqual(read, [], 'nothing is read before the answer is written');
    assert.equal(await text(payload as Readable), '{"Data":[0,1,2]}');
    assert.deepEqual(read, [0, 1, 2]);
  });

  it('ends the stream with the error of a read that fails midway', async () => {
    async function* failing() {
      yield 1;
      throw new Error('database gone');
    }
    await assert.rejects(written({ Data: new StreamedArray(failing) }), /database gone/);
  });

  it('over HTTP, a read failing after the answer started cuts the connection', async (t) => {
    async function* failing() {
      yield { SessionNo: 's-1' };
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('database gone');
    }
    const app = Fastify({ logger: false });
    t.after(() => app.close());
    app.post('/api', (_request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send(answerPayload({ RetCode: 0, Data: new StreamedArray(failing) })),
    );
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${url}/api`, { method: 'POST' });
    assert.equal(res.status, 200, 'the status line went out before the failure');
    await assert.rejects(res.text(), /terminated/, 'the client never sees a complete body');
  });
});
