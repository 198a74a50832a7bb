import assert from 'node:assert/strict';
import { test } from 'node:test';
import { optOutsOf, regionOfAccount } from './sms-rules.js';

test("an account's own region wins; without one, the gateway's", async () => {
  const regions = new Map([[1, 'US']]);
  const store = { accountRegion: (id: number) => Promise.resolve(regions.get(id)) };
  assert.equal(await regionOfAccount(store, 1, 'CN'), 'US');
  assert.equal(await regionOfAccount(store, 2, 'CN'), 'CN');
});

test('opt-outs: the exemption of verification codes is read only when a number opted out', async () => {
  let settingsRead = 0;
  const store = {
    optedOutAmong: (_a: number, phones: readonly string[]) =>
      Promise.resolve(new Set(phones.filter((p) => p.endsWith('9')))),
    optOutSettings: () => {
      settingsRead++;
      return Promise.resolve({
        optOutKeywords: [],
        optInKeywords: [],
        exemptVerification: true,
      });
    },
  };
  const none = await optOutsOf(store, 1, ['+8613800000001']);
  assert.deepEqual([none.optedOut.size, none.verificationExempt, settingsRead], [0, false, 0]);
  const some = await optOutsOf(store, 1, ['+8613800000001', '+8613800000009']);
  assert.deepEqual(
    [[...some.optedOut], some.verificationExempt, settingsRead],
    [['+8613800000009'], true, 1],
  );
  assert.equal((await optOutsOf(store, 1, [])).optedOut.size, 0);
});
