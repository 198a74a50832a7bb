import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { downloadGraph, getGraph } from './graph-client.js';
import type { GraphFailure } from './graph-errors.js';

describe('Graph GETs: a media id and its download', () => {
  let server: Server;
  let base = '';
  const seen: (string | undefined)[] = [];
  before(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.url === '/big') res.writeHead(200).end(Buffer.alloc(2048, 1));
      else if (req.url === '/gone') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 100, message: 'Unsupported get request.' } }));
      } else if (req.url === '/busy') res.writeHead(503, { 'retry-after': '7' }).end('{}');
      else res.writeHead(200, { 'content-type': 'image/png' }).end('{"url":"x"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));
  const call = (path: string) => ({ url: base + path, accessToken: 'tok', timeoutMs: 2000 });

  it('sends the token and answers the bytes with their type', async () => {
    const got = await downloadGraph(call('/ok'), 1024);
    assert.equal(got.bytes.toString(), '{"url":"x"}');
    assert.equal(got.contentType, 'image/png');
    assert.equal(seen.at(-1), 'Bearer tok');
    assert.deepEqual(await getGraph(call('/ok')), { url: 'x' });
  });

  it('a file over the limit fails for good without being kept whole', async () => {
    await assert.rejects(downloadGraph(call('/big'), 1024), (err: GraphFailure) => {
      assert.equal(err.code, 'TOO_LARGE');
      assert.equal(err.retryable, false);
      return true;
    });
  });

  it("classifies Graph's refusals: 100 is final, 503 retried after its Retry-After", async () => {
    await assert.rejects(getGraph(call('/gone')), (err: GraphFailure) => {
      assert.deepEqual([err.code, err.retryable], ['100', false]);
      return true;
    });
    await assert.rejects(downloadGraph(call('/busy'), 1024), (err: GraphFailure) => {
      assert.deepEqual([err.retryable, err.retryAfterMs], [true, 7000]);
      return true;
    });
  });
});
