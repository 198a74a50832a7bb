import { SmscSim, type SmscSimOptions } from '../../src/smsc-sim/smsc-sim.js';
import { eventually, startTestGateway, type TestGateway } from './gateway.js';
import { RawSmsc, type RawSubmit } from './raw-smsc.js';
import { sendAll } from './sending.js';

/** A gateway sending every SMS to the SMSC on `port` (named "sim"), once its binds are up. */
export async function gatewayOn(
  port: number,
  smsc: Record<string, unknown> = {},
  overrides: Record<string, unknown> = {},
): Promise<TestGateway> {
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
  return gw;
}

/** An SMSC simulator on a free port and a gateway sending every SMS to it. */
export async function gatewayWithSmsc(
  sim: SmscSimOptions = {},
  smsc: Record<string, unknown> = {},
  overrides: Record<string, unknown> = {},
): Promise<{ gw: TestGateway; sim: SmscSim; close: () => Promise<void> }> {
  const simulator = new SmscSim({ port: 0, receiptDelayMs: 0, record: true, ...sim });
  const gw = await gatewayOn(await simulator.start(), smsc, overrides);
  return {
    gw,
    sim: simulator,
    async close() {
      await gw.close();
      await simulator.stop();
    },
  };
}

/** The test-only SMPP implementation on a free port and a gateway sending every SMS to it. */
export async function gatewayWithRawSmsc(
  smsc: Record<string, unknown> = {},
): Promise<{ gw: TestGateway; raw: RawSmsc; close: () => Promise<void> }> {
  const raw = new RawSmsc();
  const gw = await gatewayOn(await raw.start(), smsc);
  return {
    gw,
    raw,
    async close() {
      await gw.close();
      await raw.stop();
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

export type RawEnv = Awaited<ReturnType<typeof gatewayWithRawSmsc>>;

/** Sends `text` to one number through a template "{1}" and answers the submit_sm PDUs it made. */
export async function sendText(
  env: RawEnv,
  tpl: string,
  text: string,
  phone: string,
  from: { SenderId?: string; ExtendCode?: string } = {},
): Promise<RawSubmit[]> {
  const target = { Phone: phone, TemplateParams: [text], ...from };
  await sendAll(env.gw, [{ TemplateId: tpl, Target: [target] }]);
  const dest = phone.slice(1);
  return eventually(async () => {
    const mine = env.raw.submits.filter((s) => s.destAddr === dest);
    const expected = mine[0]?.shortMessage[0] === 0x05 ? (mine[0].shortMessage[4] ?? 1) : 1;
    const total = mine[0]?.tlvs.get(0x020e)?.[0] ?? expected;
    return mine.length > 0 && mine.length >= total ? mine : undefined;
  }, `the submit_sm for ${phone}`);
}
