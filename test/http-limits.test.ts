import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';

/** Everything the server sent until it closed the connection (or `limitMs` passed). */
function exchange(
  url: string,
  write: (socket: Socket) => void,
  limitMs = 5000,
): Promise<{ text: string; closed: boolean; ms: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const t0 = Date.now();
    const socket = connect(Number(port), hostname, () => write(socket));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      done({ text, closed: false, ms: Date.now() - t0 });
    }, limitMs);
    socket.on('data', (d) => (text += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      done({ text, closed: true, ms: Date.now() - t0 });
    });
  });
}

function envelope(text: string): { status: number; json: { RetCode: number; Message: string } } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  return { status, json: JSON.parse(body) as { RetCode: number; Message: string } };
}

describe('HTTP limits: slow, idle and malformed clients', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      http: { headersTimeoutMs: 500, requestTimeoutMs: 800, maxConnectionsPerAddress: 20 },
    });
  });
  after(() => gw.close());

  it('cuts a slowloris client (a header byte every 100 ms) while normal calls keep answering', async () => {
    let timer: NodeJS.Timeout | undefined;
    const slow = exchange(gw.url, (socket) => {
      socket.write('POST /api HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      timer = setInterval(() => socket.writable && socket.write('a'), 100);
    });
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${gw.url}/healthz`);
      assert.equal(res.status, 200);
      await new Promise((r) => setTimeout(r, 100));
    }
    const cut = await slow;
    clearInterval(timer);
    assert.equal(cut.closed, true, 'the slow client was cut');
    assert.ok(cut.ms < 3000, `cut after ${cut.ms} ms`);
    const { status, json } = envelope(cut.text);
    assert.equal(status, 408);
    assert.equal(json.RetCode, RetCode.MalformedRequest);
  });

  it('answers a body shorter than its Content-Length with 408 in the envelope, in time', async () => {
    const res = await exchange(gw.url, (s) =>
      s.write(
        'POST /api HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"Action":',
      ),
    );
    assert.equal(res.closed, true);
    assert.equal(envelope(res.text).status, 408);
  });

  it('answers Content-Length with Transfer-Encoding in the envelope', async () => {
    const res = await exchange(gw.url, (s) =>
      s.write(
        'POST /api HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      ),
    );
    const { status, json } = envelope(res.text);
    assert.equal(status, 400);
    assert.equal(json.RetCode, RetCode.MalformedRequest);
    assert.match(json.Message, /Content-Length and Transfer-Encoding/);
  });

  it('answers a 60 KB Authorization header with 431 in the envelope', async () => {
    const res = await exchange(gw.url, (s) =>
      s.write(
        `POST /api HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'k'.repeat(60_000)}\r\n\r\n`,
      ),
    );
    const { status, json } = envelope(res.text);
    assert.equal(status, 431);
    assert.equal(json.RetCode, RetCode.LimitExceeded);
  });

  it('closes connections past the per-address cap with 429, and the others still answer', async () => {
    const { hostname, port } = new URL(gw.url);
    const held: { socket: Socket; text: string; closed: boolean }[] = [];
    for (let i = 0; i < 25; i++) {
      const entry = { socket: connect(Number(port), hostname), text: '', closed: false };
      entry.socket.on('error', () => undefined);
      entry.socket.on('data', (d) => (entry.text += d.toString('utf8')));
      entry.socket.on('close', () => (entry.closed = true));
      held.push(entry);
      await new Promise((r) => entry.socket.once('connect', r));
    }
    try {
      // Awaited, not slept on: the refusals arrive as the server answers them.
      const refused = await eventually(async () => {
        // Answered and closed by the server: the whole refusal has arrived.
        const answered = held.filter((h) => h.closed && h.text !== '');
        return answered.length >= 5 ? answered : undefined;
      }, 'five of 25 refused past the cap of 20');
      const { status, json } = envelope(refused[0]?.text ?? '');
      assert.equal(status, 429);
      assert.equal(json.RetCode, RetCode.RateLimited);
      for (const h of held.filter((x) => x.text === '').slice(0, 3)) h.socket.destroy();
      // Once the server has seen the three close, a new connection is answered.
      const again = await eventually(async () => {
        const res = await exchange(gw.url, (s) =>
          s.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
        );
        return /^HTTP\/1\.1 200/.test(res.text) ? res : undefined;
      }, 'an answer once three connections closed');
      assert.match(again.text, /^HTTP\/1\.1 200/);
    } finally {
      for (const h of held) h.socket.destroy();
    }
  });
});
