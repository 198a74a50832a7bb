import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, webhookHeaders } from './signing.js';

const msg = {
  id: 'evt_1',
  timestamp: Math.floor(Date.now() / 1000),
  body: '{"type":"x","timestamp":"t","data":{}}',
};

test('a receiver using the standardwebhooks package verifies what Wirebird signs', () => {
  const secret = newWebhookSecret();
  assert.match(secret, /^whsec_/);
  assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
  const headers = webhookHeaders([secret], msg);
  assert.deepEqual(new Webhook(secret).verify(msg.body, headers), JSON.parse(msg.body));
  assert.throws(() => new Webhook(newWebhookSecret()).verify(msg.body, headers));
  assert.throws(() => new Webhook(secret).verify(msg.body + ' ', headers));
});

test('during a rotation both secrets sign, each verifying alone', () => {
  const [fresh, old] = [newWebhookSecret(), newWebhookSecret()];
  const headers = webhookHeaders([fresh, old], msg);
  assert.equal(headers['webhook-signature']?.split(' ').length, 2);
  for (const s of [fresh, old]) assert.ok(new Webhook(s).verify(msg.body, headers));
});

test('the signature matches the standardwebhooks package’s own', () => {
  const secret = newWebhookSecret();
  const theirs = new Webhook(secret).sign(msg.id, new Date(msg.timestamp * 1000), msg.body);
  assert.equal(webhookHeaders([secret], msg)['webhook-signature'], theirs);
});
