import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, checkConfig, loadConfig } from './config.js';

const load = (env: Record<string, string>) => loadConfig(env, undefined);

describe('WIREBIRD_SMSC', () => {
  it('declares one SMSC named default taking every SMS', () => {
    const c = load({
      WIREBIRD_SMSC: 'smpp://acme:s%40cret@10.0.0.5:2776?window=50&tps=200&split=sar',
    });
    const [smsc] = c.smpp.smscs;
    assert.deepEqual(
      [smsc?.name, smsc?.host, smsc?.port, smsc?.systemId, smsc?.password],
      ['default', '10.0.0.5', 2776, 'acme', 's@cret'],
    );
    assert.deepEqual(
      [smsc?.window, smsc?.tps, smsc?.split, smsc?.encoding],
      [50, 200, 'sar', 'gsm'],
    );
    assert.deepEqual(c.smpp.routes, [{ prefix: '', smscs: ['default'] }]);
  });
  it('defaults the port to 2775, the window to 10', () => {
    const [smsc] = load({ WIREBIRD_SMSC: 'smpp://acme@127.0.0.1' }).smpp.smscs;
    assert.deepEqual([smsc?.port, smsc?.window, smsc?.password], [2775, 10, '']);
  });
  const bad: [string, RegExp][] = [
    ['not a url', /must be a URL/],
    ['http://a:b@host', /must start with smpp:\/\//],
    ['smpp://host:2775', /needs a system_id/],
    ['smpp://a:b@host?windw=5', /unknown option windw/],
    ['smpp://a:b@host?window=lots', /window must be a whole number/],
    ['smpp://a:b@host?split=zip', /split/],
  ];
  for (const [value, message] of bad) {
    it(`refuses ${value}, without echoing the password`, () => {
      assert.throws(
        () => load({ WIREBIRD_SMSC: value }),
        (e: unknown) =>
          e instanceof ConfigError && message.test(e.message) && !e.message.includes(':b@'),
      );
    });
  }
});

describe('smpp in the config file', () => {
  const smsc = { name: 'a', systemId: 'acme' };
  const check = (smpp: unknown) => () => checkConfig({ smpp });
  it('takes SMSCs and routes, with defaults', () => {
    const c = checkConfig({ smpp: { smscs: [smsc], routes: [{ prefix: '+86', smscs: ['a'] }] } });
    assert.deepEqual([c.smpp.smscs[0]?.bindMode, c.smpp.smscs[0]?.split], ['transceiver', 'udh']);
  });
  it('refuses a route naming an SMSC that does not exist', () => {
    assert.throws(
      check({ smscs: [smsc], routes: [{ prefix: '', smscs: ['b'] }] }),
      /smpp.routes\/0\/smscs: no SMSC is named b/,
    );
  });
  it('refuses two SMSCs of one name', () => {
    assert.throws(check({ smscs: [smsc, smsc], routes: [] }), /the name a is used twice/);
  });
  it('refuses SMSCs that no route uses', () => {
    assert.throws(check({ smscs: [smsc] }), /no route sends anything to them/);
  });
  it('refuses a prefix that is not digits after an optional +', () => {
    assert.throws(check({ smscs: [smsc], routes: [{ prefix: '+86x', smscs: ['a'] }] }), /prefix/);
  });
});
