import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { parseExposition, valueOf } from '../helpers/prometheus.js';
import { CMD, RawEsme, bindBody, type RawAnswer } from '../helpers/raw-esme.js';
import { status } from '../helpers/esme.js';

/**
 * A flood of binds with wrong passwords from many addresses (docs/smpp-server.md, "Binds under
 * load"): every bind is answered, a known ESME still binds at once, and what was refused for
 * want of room is counted. The flood comes from 127.0.0.2 – 127.0.0.101, the ESME from 127.0.0.1.
 */
async function flood(gw: TestGateway, perAddress: number) {
  const address = gw.smppAddress as string;
  const binds: Promise<RawAnswer | 'closed'>[] = [];
  const raws: RawEsme[] = [];
  for (let host = 2; host <= 101; host++) {
    for (let i = 0; i < perAddress; i++) {
      const r = await RawEsme.connect(address, `127.0.0.${host}`);
      raws.push(r);
      binds.push(
        r.call(CMD.bind_transceiver, 1, bindBody('bank', 'guess')).catch(() => 'closed' as const),
      );
    }
  }
  return { raws, answers: binds };
}

async function refusals(gw: TestGateway) {
  const res = await fetch(`${gw.url}/metrics`, {
    headers: { authorization: `Bearer ${gw.adminKey}` },
  });
  const text = await res.text();
  const samples = parseExposition(text);
  const of = (reason: string) =>
    valueOf(samples, 'wirebird_smpp_server_bind_refusals_total', { reason });
  return { busy: of('busy'), addressBusy: of('address_busy'), timeout: of('timeout') };
}

const refused = [status('ESME_RINVPASWD'), status('ESME_RBINDFAIL')];

describe('SMPP server: a flood of binds', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      smppServer: {
        listen: '127.0.0.1:0',
        esmes: [
          { accountId: 1, systemId: 'bank', password: 'right' },
          { accountId: 1, systemId: 'shop', password: 'right' },
        ],
      },
    });
  });
  after(() => gw.close());

  it('answers every bind; a known ESME binds at once, a new one is answered', async () => {
    const address = gw.smppAddress as string;
    const known = await RawEsme.connect(address);
    assert.equal((await known.call(CMD.bind_transceiver, 1, bindBody('shop', 'right'))).status, 0);
    known.close();
    const { raws, answers } = await flood(gw, 3);
    const again = await RawEsme.connect(address);
    const rebind = await again.call(CMD.bind_transceiver, 1, bindBody('shop', 'right'));
    assert.equal(rebind.status, 0, 'a reconnecting ESME pays no password check');
    const fresh = await RawEsme.connect(address, '127.0.0.200');
    const first = await fresh.call(CMD.bind_transceiver, 1, bindBody('bank', 'right'));
    assert.ok([0, status('ESME_RBINDFAIL')].includes(first.status), 'answered, not dropped');
    const got = await Promise.all(answers);
    assert.equal(got.filter((a) => a === 'closed').length, 0, 'no bind closed unanswered');
    for (const a of got) if (a !== 'closed') assert.ok(refused.includes(a.status), `${a.status}`);
    const counted = await refusals(gw);
    assert.ok(counted.busy > 0, 'the full queue refused some at once');
    for (const r of [...raws, again, fresh]) r.close();
  });
});

describe('SMPP server: binds not checked within bindTimeoutMs', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      smppServer: {
        listen: '127.0.0.1:0',
        bindTimeoutMs: 100,
        esmes: [{ accountId: 1, systemId: 'bank', password: 'right' }],
      },
    });
  });
  after(() => gw.close());

  it('are answered ESME_RBINDFAIL before their connection is closed', async () => {
    const { raws, answers } = await flood(gw, 1);
    const got = await Promise.all(answers);
    assert.equal(got.filter((a) => a === 'closed').length, 0, 'no bind closed unanswered');
    for (const a of got) if (a !== 'closed') assert.ok(refused.includes(a.status), `${a.status}`);
    await eventually(async () => ((await refusals(gw)).timeout > 0 ? true : undefined), 'timeouts');
    for (const r of raws) r.close();
  });
});
