import { SmscSim, type SmscSimOptions } from '../../src/smsc-sim/smsc-sim.js';
import { eventually, startTestGateway, type TestGateway } from './gateway.js';

/** An SMSC simulator on a free port and a gateway sending every SMS to it. */
export async function gatewayWithSmsc(
  sim: SmscSimOptions = {},
  smsc: Record<string, unknown> = {},
  overrides: Record<string, unknown> = {},
): Promise<{ gw: TestGateway; sim: SmscSim; close(): Promise<void> }> {
  const simulator = new SmscSim({ port: 0, receiptDelayMs: 0, record: true, ...sim });
  const port = await simulator.start();
  const gw = await startTestGateway({
    receiptTimeoutS: 60,
    smpp: {
      smscs: [
        {
          name: 'sim',
          port,
          systemId: 'wirebird',
          password: 'secret',
          responseTimeoutS: 5,
          ...smsc,
        },
      ],
      routes: [{ prefix: '', smscs: ['sim'] }],
    },
    ...overrides,
  });
  await bound(gw);
  return {
    gw,
    sim: simulator,
    async close() {
      await gw.close();
      await simulator.stop();
    },
  };
}

/** Waits until every bind of the SMPP channel is bound. */
export async function bound(gw: TestGateway): Promise<void> {
  await eventually(async () => {
    const smpp = gw.pipeline.channels.byName.get('smpp');
    return smpp?.status().state === 'up' ? true : undefined;
  }, 'the SMPP binds');
}
