import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from '../helpers/gateway.js';
import { bound, gatewayWithRawSmsc } from '../helpers/smpp.js';

describe('SMPP keep-alive (against an independent SMSC)', () => {
  it('sends enquire_link, and binds again when the link stops answering', async () => {
    const env = await gatewayWithRawSmsc({
      enquireLinkS: 1,
      responseTimeoutS: 1,
      reconnectMaxS: 1,
    });
    try {
      await eventually(
        async () => (env.raw.enquireLinks >= 1 ? true : undefined),
        'an enquire_link',
      );
      assert.equal(env.raw.binds, 1, 'an answered link stays up');
      env.raw.answerEnquireLink = false;
      await eventually(async () => (env.raw.binds >= 2 ? true : undefined), 'a new bind');
      env.raw.answerEnquireLink = true;
      await bound(env.gw);
    } finally {
      await env.close();
    }
  });
});
