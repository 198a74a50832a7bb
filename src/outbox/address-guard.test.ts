import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { isBlockedAddress, urlProblem } from './address-guard.js';
import { WebhookSender } from './webhook-sender.js';

test('internal addresses of every kind are blocked, public ones are not', () => {
  const blocked = [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a9fe:a9fe',
  ];
  for (const a of blocked) assert.equal(isBlockedAddress(a), true, a);
  for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
    assert.equal(isBlockedAddress(a), false, a);
  }
});

test('an endpoint URL is checked: scheme, credentials, and every address it resolves to', async () => {
  const resolve = async (host: string) =>
    ({ 'public.test': ['93.184.216.34'], 'mixed.test': ['93.184.216.34', '10.0.0.1'] })[host] ?? [];
  const check = (url: string, allowPrivate = false) => urlProblem(url, { allowPrivate, resolve });
  assert.equal(await check('https://public.test/hook'), undefined);
  assert.equal(await check('http://93.184.216.34:8080/x'), undefined);
  assert.match((await check('http://127.0.0.1/x')) ?? '', /internal address/);
  assert.match((await check('http://[::1]/x')) ?? '', /internal address/);
  assert.match((await check('http://169.254.169.254/latest/meta-data')) ?? '', /internal/);
  assert.match((await check('https://mixed.test/')) ?? '', /10\.0\.0\.1/);
  assert.match((await check('https://nowhere.test/')) ?? '', /no address/);
  assert.match((await check('ftp://public.test/')) ?? '', /http or https/);
  assert.match((await check('https://u:p@public.test/')) ?? '', /user name or password/);
  assert.match((await check('not a url')) ?? '', /not a URL/);
  assert.equal(await check('http://127.0.0.1/x', true), undefined);
});

test('at send time the connected address is checked: a name rebound inward is refused', async () => {
  let hits = 0;
  const server = createServer((_q, s) => {
    hits++;
    s.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  // Saved while it resolved outward; it now resolves to the gateway's own loopback.
  const sender = new WebhookSender({
    timeoutMs: 2000,
    allowPrivate: false,
    connections: 1,
    resolve: async () => ['127.0.0.1'],
  });
  try {
    const viaName = await sender.send(`http://rebind.test:${port}/`, {}, '{}');
    assert.equal(viaName.statusCode, undefined);
    assert.match(viaName.error, /internal address/);
    const literal = await sender.send(`http://127.0.0.1:${port}/`, {}, '{}');
    assert.match(literal.error, /internal address/);
    // https goes through the same client, and the same look-up, over TLS.
    const viaTls = await sender.send(`https://rebind.test:${port}/`, {}, '{}');
    assert.equal(viaTls.statusCode, undefined);
    assert.match(viaTls.error, /internal address/);
    assert.equal(hits, 0, 'nothing reached the internal server');
  } finally {
    await sender.close();
    server.close();
  }
});

test('an answer is read up to a limit, however large', async () => {
  const server = createServer((_q, s) => {
    s.writeHead(200);
    const chunk = Buffer.alloc(64 * 1024, 120);
    let sent = 0;
    const more = () => {
      while (sent < 50 * 1024 * 1024) {
        sent += chunk.length;
        if (!s.write(chunk)) return void s.once('drain', more);
      }
      s.end();
    };
    s.on('error', () => undefined);
    more();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const sender = new WebhookSender({ timeoutMs: 5000, allowPrivate: true, connections: 1 });
  try {
    const before = process.memoryUsage().rss;
    const answer = await sender.send(`http://127.0.0.1:${port}/`, {}, '{}');
    assert.equal(answer.statusCode, 200);
    assert.ok(
      process.memoryUsage().rss - before < 40 * 1024 * 1024,
      'the 50 MB answer was not held',
    );
  } finally {
    await sender.close();
    server.closeAllConnections();
    server.close();
  }
});
