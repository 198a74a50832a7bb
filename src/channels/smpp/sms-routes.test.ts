import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SmsRoutes } from './sms-routes.js';

describe('SmsRoutes', () => {
  const routes = new SmsRoutes([
    { prefix: '', smscs: ['default'] },
    { prefix: '+86', smscs: ['cn', 'default'] },
    { prefix: '+86138', smscs: ['mobile'] },
    { prefix: '+86138', senderId: 'BANK', smscs: ['bank'] },
    { prefix: '+44', senderId: 'Acme', smscs: ['uk-acme'] },
  ]);

  it('picks the longest matching prefix', () => {
    assert.deepEqual(routes.smscsFor('+8613812345678', 'X'), ['mobile']);
    assert.deepEqual(routes.smscsFor('+8615912345678', 'X'), ['cn', 'default']);
  });
  it('prefers a route naming the SenderId at the same length', () => {
    assert.deepEqual(routes.smscsFor('+8613812345678', 'BANK'), ['bank']);
  });
  it('skips a SenderId route for other senders, down to the default', () => {
    assert.deepEqual(routes.smscsFor('+447700900123', 'Other'), ['default']);
    assert.deepEqual(routes.smscsFor('+447700900123', 'Acme'), ['uk-acme']);
  });
  it('answers nothing when no route matches', () => {
    assert.deepEqual(new SmsRoutes([{ prefix: '+1', smscs: ['us'] }]).smscsFor('+4477', ''), []);
  });
});
