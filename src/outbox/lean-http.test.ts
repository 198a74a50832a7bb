import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { Agent, request } from 'undici';
import { selfSignedCertificate } from '../../test/helpers/test-certificate.js';
import { LeanHttpClient } from './lean-http.js';

const LIMIT = 4096;
const certDir = mkdtempSync(join(tmpdir(), 'wirebird-lean-http-'));
const certificate = selfSignedCertificate(certDir);
after(() => rmSync(certDir, { recursive: true, force: true }));

/** Answers by path, as receivers do: each case of framing an HTTP/1.1 answer can take. */
function answer(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => {
    switch (req.url) {
      case '/length':
        return void res.writeHead(200, { 'content-length': '2' }).end('ok');
      case '/once':
        return void res.writeHead(200, { 'content-length': '2', connection: 'close' }).end('ok');
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

/** What node:http cannot be made to send: an interim 100, an answer ended by the close, a head in pieces. */
function rawAnswer(s: Socket): void {
  s.once('data', (d) => {
    const path = d.toString('latin1').split(' ')[1];
    if (path === '/continue')
      s.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\ncontent-length: 3\r\n\r\nyes');
    else if (path === '/close') s.end('HTTP/1.0 200 OK\r\n\r\nuntil the close');
    else if (path === '/slow') {
      // The head arrives in three pieces, split inside a header name: each written once the one
      // before it is out and the client, in this process, has had a turn of the loop to read it.
      const after = (piece: string, next: () => void) => s.write(piece, () => setImmediate(next));
      after('HTTP/1.1 200 OK\r\ncontent-', () => after('length: 4\r\n\r', () => s.end('\nslow')));
    } else s.end('SMTP ready\r\n\r\n');
  });
}

/** The servers and clients of one scheme: node's server, a raw one, the lean client, undici. */
function schemeOf(tls: boolean) {
  if (!tls) {
    return {
      server: createHttpServer(answer),
      raw: createNetServer(rawAnswer),
      client: new LeanHttpClient({ connectionsPerOrigin: 4, timeoutMs: 1000, readLimit: LIMIT }),
      undici: undefined,
    };
  }
  const pair = { cert: readFileSync(certificate.certFile), key: readFileSync(certificate.keyFile) };
  const ca = readFileSync(certificate.certFile, 'utf8');
  return {
    server: createHttpsServer(pair, answer),
    raw: createTlsServer(pair, rawAnswer) as Server,
    client: new LeanHttpClient({ connectionsPerOrigin: 4, timeoutMs: 1000, readLimit: LIMIT, ca }),
    undici: new Agent({ connect: { ca } }),
  };
}

for (const scheme of ['http', 'https'] as const) {
  const skip = scheme === 'https' ? certificate.skip : false;
  describe(
    `the lean HTTP client over ${scheme}, against undici and node:${scheme}`,
    { skip },
    () => {
      const { server, raw, client, undici } = skip ? schemeOf(false) : schemeOf(scheme === 'https');
      let base = '';
      let rawBase = '';
      before(async () => {
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
        base = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
        rawBase = `${scheme}://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      });
      after(async () => {
        client.close();
        await undici?.close();
        server.closeAllConnections();
        server.close();
        raw.close();
      });
      const lean = (url: string) =>
        client.post(new URL(url), { 'content-type': 'application/json' }, '{"a":1}');

      it('reads status, Retry-After and the body as undici does', async () => {
        for (const path of ['/length', '/chunked', '/busy', '/empty', '/missing', '/redirect']) {
          const mine = await lean(base + path);
          const theirs = await request(base + path, {
            method: 'POST',
            body: '{"a":1}',
            ...(undici ? { dispatcher: undici } : {}),
          });
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

      it('skips an interim 100, reads an answer ended by its close and a head in pieces', async () => {
        assert.deepEqual(
          [
            (await lean(`${rawBase}/continue`)).statusCode,
            (await lean(`${rawBase}/continue`)).excerpt,
          ],
          [202, 'yes'],
        );
        const closed = await lean(`${rawBase}/close`);
        assert.deepEqual([closed.statusCode, closed.excerpt], [200, 'until the close']);
        const slow = await lean(`${rawBase}/slow`);
        assert.deepEqual([slow.statusCode, slow.excerpt], [200, 'slow']);
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
          lean(`${scheme}://127.0.0.1:9/`),
          (e: { code?: string }) => e.code === 'ECONNREFUSED',
        );
        assert.equal((await lean(`${base}/length`)).statusCode, 200);
      });

      it('reuses its keep-alive connections, never more than the limit per origin', async () => {
        let sockets = 0;
        server.on('connection', () => sockets++);
        const before = sockets;
        const answers = await Promise.all(
          Array.from({ length: 200 }, () => lean(`${base}/length`)),
        );
        assert.ok(answers.every((a) => a.statusCode === 200));
        assert.ok(sockets - before <= 4, `${sockets - before} connections for 200 requests`);
      });
    },
  );
}

describe(
  'the lean HTTP client over https, a receiver that closes',
  { skip: certificate.skip },
  () => {
    it('resumes the TLS session on the next connection instead of a full handshake', async () => {
      const { server, client } = schemeOf(true);
      const resumed: boolean[] = [];
      server.on('secureConnection', (s: TLSSocket) => resumed.push(s.isSessionReused()));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const url = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/once`);
        for (let i = 0; i < 3; i++)
          assert.equal((await client.post(url, {}, '{}')).statusCode, 200);
        assert.deepEqual(resumed, [false, true, true]);
      } finally {
        client.close();
        server.close();
      }
    });
  },
);

describe('the lean HTTP client over https, untrusted', { skip: certificate.skip }, () => {
  it('refuses a certificate no authority it trusts signed, and sends nothing', async () => {
    const { server } = schemeOf(true);
    let requests = 0;
    server.on('request', () => requests++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = new LeanHttpClient({ connectionsPerOrigin: 1, timeoutMs: 1000, readLimit: 64 });
    try {
      const url = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/length`);
      await assert.rejects(client.post(url, {}, '{}'), /self[- ]signed|certificate/i);
      assert.equal(requests, 0);
    } finally {
      client.close();
      server.close();
    }
  });
});
