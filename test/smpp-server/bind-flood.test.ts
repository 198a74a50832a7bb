import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Esme, status } from '../helpers/esme.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

/** A hostile client: binds in parallel to guess a password, and connections by the hundred. */
describe('SMPP server: bind floods and connection floods', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      smppServer: {
        listen: '127.0.0.1:0',
        maxConnections: 25,
        esmes: [{ accountId: 1, systemId: 'target', password: 'right' }],
      },
    });
  });
  after(() => gw.close());

  it('parallel guesses from one address are checked one at a time: five, then refused', async () => {
    const clients = await Promise.all(
      Array.from({ length: 20 }, () => Esme.connect(gw.smppAddress as string)),
    );
    const answers = await Promise.all(
      clients.map((e, i) => e.bind('target', `guess${i}`).then((r) => r.command_status)),
    );
    const guessed = answers.filter((s) => s === status('ESME_RINVPASWD')).length;
    const blocked = answers.filter((s) => s === status('ESME_RBINDFAIL')).length;
    assert.deepEqual([guessed, blocked], [5, 15], 'only five passwords were ever checked');
    for (const e of clients) e.close();
  });

  it('past maxConnections a connection is refused at accept', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, async () => {
        const e = await Esme.connect(gw.smppAddress as string);
        const closed = await Promise.race([
          e.closed.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), 500)),
        ]);
        return { e, closed };
      }),
    );
    const open = results.filter((r) => r.status === 'fulfilled' && !r.value.closed).length;
    assert.ok(open <= 25, `at most 25 stay open (${open})`);
    for (const r of results) if (r.status === 'fulfilled') r.value.e.close();
  });
});
