import assert from 'node:assert/strict';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { LeanHttpClient } from './lean-http.js';

const LIMIT = 4096;

/** Answers by path, as receivers do: each case of framing an HTTP/1.1 answer can take. */
function answer(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => {
    switch (req.url) {
      case '/length':
        return void res.writeHead(200, { 'content-length': '2' }).end('ok');
      case '/chunked':
        res.writeHead(500);
        res.write('bo');
        return void res.end('om');
      case '/busy':
        return void res.writeHead(429, { 'retry-after': '120', 'content-length': '0' }).end();
      case '/redirect':
        return void res.writeHead(302, { location: '/length', 'content-length': '0' }).end();
      case '/empty':
        return void res.writeHead(204).end();
      case '/big': {
        res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
        const chunk = Buffer.alloc(1024 * 1024, 120);
        let n = 0;
        const more = () => {
          while (n < 50) {
            n++;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        res.on('error', () => undefined);
        more();
        return;
      }
      case '/hang':
        return;
      case '/reset':
        return void req.socket.destroy();
      default:
        res.writeHead(404).end('none here');
    }
  });
}

describe('the lean HTTP client, against undici and node:http', () => {
  const server = createHttpServer(answer);
  const raw = createNetServer((s: Socket) => {
    s.once('data', (d) => {
      const path = d.toString('latin1').split(' ')[1];
      if (path === '/continue')
        s.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\ncontent-length: 3\r\n\r\nyes');
      else if (path === '/close') s.end('HTTP/1.0 200 OK\r\n\r\nuntil the close');
      else s.end('SMTP ready\r\n\r\n');
    });
  });
  let base = '';
  let rawBase = '';
  const client = new LeanHttpClient({ connectionsPerOrigin: 4, timeoutMs: 1000, readLimit: LIMIT });
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    rawBase = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  });
  after(async () => {
    client.close();
    server.closeAllConnections();
    server.close();
    raw.close();
  });
  const lean = (url: string) =>
    client.post(new URL(url), { 'content-type': 'application/json' }, '{"a":1}');

  it('reads status, Retry-After and the body as undici does', async () => {
    for (const path of ['/length', '/chunked', '/busy', '/empty', '/missing', '/redirect']) {
      const mine = await lean(base + path);
      const theirs = await request(base + path, { method: 'POST', body: '{"a":1}' });
      const text = await theirs.body.text();
      assert.deepEqual(
        [mine.statusCode, mine.retryAfter, mine.excerpt],
        [theirs.statusCode, theirs.headers['retry-after'], text],
        path,
      );
    }
  });

  it('does not follow a redirect: a 3xx is the answer, and a failed attempt', async () => {
    assert.equal((await lean(`${base}/redirect`)).statusCode, 302);
  });

  it('skips an interim 100, and reads an answer that ends with its connection', async () => {
    assert.deepEqual(
      [(await lean(`${rawBase}/continue`)).statusCode, (await lean(`${rawBase}/continue`)).excerpt],
      [202, 'yes'],
    );
    const closed = await lean(`${rawBase}/close`);
    assert.deepEqual([closed.statusCode, closed.excerpt], [200, 'until the close']);
    await assert.rejects(lean(`${rawBase}/nonsense`), /not HTTP/);
  });

  it('reads a 50 MB answer only up to its limit', async () => {
    const started = Date.now();
    const a = await lean(`${base}/big`);
    assert.equal(a.statusCode, 200);
    assert.equal(a.excerpt.length, LIMIT);
    assert.ok(Date.now() - started < 1000, 'answered without reading the rest');
  });

  it('fails on a timeout, a reset and a refused connection, and keeps working after', async () => {
    await assert.rejects(lean(`${base}/hang`), /no answer within 1000 ms/);
    await assert.rejects(lean(`${base}/reset`), (e: { code?: string }) =>
      ['ECLOSED', 'ECONNRESET'].includes(e.code ?? ''),
    );
    await assert.rejects(
      lean('http://127.0.0.1:9/'),
      (e: { code?: string }) => e.code === 'ECONNREFUSED',
    );
    assert.equal((await lean(`${base}/length`)).statusCode, 200);
  });

  it('reuses its keep-alive connections, never more than the limit per origin', async () => {
    let sockets = 0;
    server.on('connection', () => sockets++);
    const before = sockets;
    const answers = await Promise.all(Array.from({ length: 200 }, () => lean(`${base}/length`)));
    assert.ok(answers.every((a) => a.statusCode === 200));
    assert.ok(sockets - before <= 4, `${sockets - before} connections for 200 requests`);
  });
});
