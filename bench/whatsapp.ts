/**
 * The WhatsApp path end to end (issue 19, target 7 re-runs it beside each change): SendMessage
 * of a text to a business phone, the gateway's WhatsApp channel posting it to a Graph API
 * stand-in (`GraphSim`, in the bench's process), and the three statuses (sent, delivered, read)
 * posted back to the gateway's webhook, signed, as Meta posts them. A run is done when every
 * message's statuses were answered 200.
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { GraphSim } from '../src/graph-sim/graph-sim.js';
import type { Answer } from './api.js';
import { runLoad } from './load.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { CpuWindow } from './proc.js';
import { gatewayFigures, withBench, type Bench } from './session.js';
import { freshDataDir } from './gateway.js';
import { fmt, quantile, table } from './stats.js';

const APP_SECRET = 'bench-app-secret';
const BUSINESS_PHONE = '+8613900000000';
const STATUSES_PER_MESSAGE = 3;

export interface WhatsAppFigures {
  messages: number;
  failed: number;
  firstError: string | undefined;
  acceptedPerS: number;
  p50Ms: number;
  p99Ms: number;
  /** First request → the last message's third status answered. */
  endToEndS: number;
  endToEndPerS: number;
  statusesPosted: number;
  statusesRefused: number;
  cpuUsPerMessage: number;
  benchCpuS: number;
  peakRssMb: number;
}

function bodies(b: Bench, phones: PhoneSequence, n: number): string[] {
  return phones.take(n).map((To, i) =>
    JSON.stringify({
      Action: 'SendMessage',
      AccountId: b.gw.accountId,
      BusinessPhone: BUSINESS_PHONE,
      To,
      Type: 'text',
      Content: JSON.stringify({ body: `Your order ${i} has shipped.` }),
    }),
  );
}

/** runLoad counts SuccessCount; a SendMessage accepts one message when its RetCode is 0. */
function oneMessageEach(b: Bench) {
  return {
    call: async (body: string): Promise<Answer> => {
      const a = await b.api.call(body);
      const ok = a.json.RetCode === 0;
      return { ...a, json: { ...a.json, SuccessCount: ok ? 1 : 0, SessionNo: '' } };
    },
  };
}

async function registerPhone(b: Bench): Promise<void> {
  const r = await b.api.admin(`/admin/accounts/${b.gw.accountId}/business-phones`, {
    BusinessPhone: BUSINESS_PHONE,
    Channel: 'whatsapp',
    PhoneNumberId: '106540352242922',
    AccessToken: 'bench-access-token',
    // Contacts never write in the benchmark: the window's guard is off, as graph-sim's is.
    WindowGuard: false,
  });
  if (r.status !== 201)
    throw new Error(`registering the business phone: ${JSON.stringify(r.json)}`);
}

async function statusesIn(sim: GraphSim, want: number, deadline: number): Promise<number> {
  while (sim.stats.statusesPosted + sim.stats.statusesRefused < want) {
    if (performance.now() > deadline) break;
    await sleep(20);
  }
  return performance.now();
}

export async function measureWhatsApp(o: Options, phones: PhoneSequence): Promise<WhatsAppFigures> {
  const sim = new GraphSim({
    ...{ host: '127.0.0.1', port: 0, statusDelayMs: 0, appSecret: APP_SECRET },
    // The benchmark measures sending; the window has its own tests.
    window: false,
  });
  const simUrl = await sim.start();
  // Meta's default of 80 messages a second per phone would be all the bench measured.
  const config = {
    whatsapp: { apiUrl: `${simUrl}/v24.0`, appSecret: APP_SECRET, phoneTps: 10_000 },
  };
  const dataDir = freshDataDir(o.workDir, 'whatsapp');
  try {
    const { value, ended } = await withBench(
      o,
      dataDir,
      'whatsapp',
      async (b) => {
        sim.webhookUrl = `${b.gw.origin}/webhooks/whatsapp`;
        await registerPhone(b);
        const api = oneMessageEach(b);
        const warm = bodies(b, phones, Math.min(1000, o.messages));
        await runLoad(api, warm, o.clients, o.timeLimitS * 1000);
        await statusesIn(sim, warm.length * STATUSES_PER_MESSAGE, performance.now() + 30_000);
        const before = sim.stats.statusesPosted + sim.stats.statusesRefused;
        const measured = bodies(b, phones, o.messages);
        const cpu = CpuWindow.start(b.gw.pid);
        const load = await runLoad(api, measured, o.clients, o.timeLimitS * 1000);
        const want = before + load.accepted * STATUSES_PER_MESSAGE;
        const doneMs = await statusesIn(sim, want, performance.now() + o.drainLimitS * 1000);
        const used = cpu.end();
        const endToEndS = (doneMs - load.startMs) / 1000;
        return {
          messages: load.accepted,
          failed: load.failed,
          firstError: load.firstError,
          acceptedPerS: load.accepted / ((load.endMs - load.startMs) / 1000),
          p50Ms: quantile(load.latenciesMs, 0.5),
          p99Ms: quantile(load.latenciesMs, 0.99),
          endToEndS,
          endToEndPerS: load.accepted / endToEndS,
          statusesPosted: sim.stats.statusesPosted - before,
          statusesRefused: sim.stats.statusesRefused,
          cpuUsPerMessage: (used.gatewayS * 1e6) / Math.max(1, load.accepted),
          benchCpuS: used.benchS,
        };
      },
      config,
    );
    return { ...value, peakRssMb: gatewayFigures(ended).peakRssMb };
  } finally {
    await sim.stop();
    if (!o.keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

export function whatsappTable(f: WhatsAppFigures): string {
  return table([
    [
      'SendMessage (text) accepted',
      `${fmt.int(f.messages)}${f.failed ? `, ${f.failed} failed (first: ${f.firstError})` : ''}`,
    ],
    ['accepted per second (one message a request)', fmt.int(f.acceptedPerS)],
    ['request latency p50 / p99', `${fmt.ms(f.p50Ms)} / ${fmt.ms(f.p99Ms)}`],
    [
      '**end to end**: first request → every message read (3 signed statuses each)',
      `**${fmt.int(f.endToEndPerS)}/s** (${fmt.s(f.endToEndS)})`,
    ],
    ['statuses answered 200 / refused', `${fmt.int(f.statusesPosted)} / ${f.statusesRefused}`],
    ['gateway CPU per message, end to end', fmt.us(f.cpuUsPerMessage)],
    ['bench CPU (load and the Graph API stand-in)', fmt.s(f.benchCpuS)],
    ['gateway peak RSS', fmt.mb(f.peakRssMb)],
  ]);
}
