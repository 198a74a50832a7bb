/**
 * Events to an https receiver (issue 36): most real receivers are https. A receiver with a
 * self-signed certificate is trusted through webhooks.caFile and gets every event, signed and
 * verified; without it, each attempt fails on the certificate and nothing is lost.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { emitOptIns, optInEndpoint } from './helpers/opt-in-events.js';
import { Receiver } from './helpers/receiver.js';
import { selfSignedCertificate } from './helpers/test-certificate.js';

const dir = mkdtempSync(join(tmpdir(), 'wirebird-events-https-'));
const { certFile, keyFile, skip } = selfSignedCertificate(dir);
const EVENTS = 50;
const HOOKS = { allowPrivate: true, timeoutMs: 2000, pollMs: 10, retrySchedule: '1h' };

describe('events to an https receiver', { skip }, () => {
  let receiver: Receiver;
  const gateways: TestGateway[] = [];
  before(async () => {
    // Events of this suite's own making ({ N }), not the gateway's payloads.
    const tls = { cert: readFileSync(certFile), key: readFileSync(keyFile) };
    receiver = await new Receiver(false, tls).start();
  });
  after(async () => {
    for (const gw of gateways) await gw.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('trusted through webhooks.caFile: every event arrives, signed and verified', async () => {
    const gw = await startTestGateway({ webhooks: { ...HOOKS, caFile: certFile } });
    gateways.push(gw);
    const { secret } = await optInEndpoint(gw, receiver.url);
    receiver.secrets = [secret];
    await emitOptIns(gw, EVENTS);
    await eventually(async () => (receiver.got.length >= EVENTS ? true : undefined), 'events');
    assert.equal(new Set(receiver.got.map((r) => r.id)).size, EVENTS);
    assert.ok(receiver.got.every((r) => r.verified));
  });

  it('not trusted without it: the attempt fails on the certificate and the event waits', async () => {
    const gw = await startTestGateway({ webhooks: HOOKS });
    gateways.push(gw);
    const before = receiver.got.length;
    const { id } = await optInEndpoint(gw, receiver.url);
    await emitOptIns(gw, 1);
    const delivery = await eventually(async () => {
      const page = await gw.store.listDeliveries({ accountId: 1, endpointId: id, limit: 10 });
      return page.deliveries.find((d) => d.attempts >= 1);
    }, 'a failed attempt');
    assert.equal(delivery.state, 'pending');
    assert.match(delivery.lastError, /self[- ]signed|certificate/i);
    assert.equal(receiver.got.length, before, 'no request got past the handshake');
  });

  it('refuses to start with a caFile that holds no certificate, naming the setting', async () => {
    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    await assert.rejects(
      startTestGateway({ webhooks: { ...HOOKS, caFile: notPem } }),
      /webhooks\.caFile \(WIREBIRD_WEBHOOK_CA_FILE\): .*holds no PEM certificate/,
    );
    await assert.rejects(
      startTestGateway({ webhooks: { ...HOOKS, caFile: join(dir, 'missing.pem') } }),
      /webhooks\.caFile \(WIREBIRD_WEBHOOK_CA_FILE\): .*ENOENT/,
    );
  });
});
