import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Esme } from '../helpers/esme.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { cn, finalReceipts } from '../helpers/sending.js';
import { selfSignedCertificate } from '../helpers/test-certificate.js';

const dir = mkdtempSync(join(tmpdir(), 'wirebird-smpp-tls-'));
const { certFile: cert, keyFile: key, skip } = selfSignedCertificate(dir);

describe('SMPP server over TLS', { skip }, () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      simDelayMs: 0,
      smppServer: {
        listen: '127.0.0.1:0',
        tlsCertFile: cert,
        tlsKeyFile: key,
        esmes: [{ accountId: 1, systemId: 'secure', password: 'pw' }],
      },
    });
  });
  after(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds and submits over TLS; plain SMPP on the TLS port gets no answer', async () => {
    const e = await Esme.connect(gw.smppAddress as string, true);
    assert.equal((await e.bind('secure', 'pw')).command_status, 0);
    const resp = await e.submit({ destination_addr: cn(5601).slice(1), short_message: 'sealed' });
    assert.equal(resp.command_status, 0);
    await finalReceipts(gw, String(resp.message_id), 1);
    e.close();
    const port = Number((gw.smppAddress as string).split(':').pop());
    const plain = await new Promise<string>((resolve) => {
      const s = connect(port, '127.0.0.1', () =>
        s.write(Buffer.from('00000010000000150000000000000001', 'hex')),
      );
      s.once('data', (d) => resolve(d.subarray(0, 8).toString('hex')));
      s.once('close', () => resolve('closed'));
      s.once('error', () => resolve('closed'));
    });
    assert.notEqual(plain, '0000001080000015', 'no enquire_link_resp in the clear');
  });
});
