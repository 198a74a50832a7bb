import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Api } from './api.js';
import { freshDataDir } from './gateway.js';
import { runLoad } from './load.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { CpuWindow } from './proc.js';
import { waitForReceipts } from './receipts.js';
import { gatewayFigures, makeBodies, withBench, type Bench } from './session.js';
import { fmt, table } from './stats.js';

/**
 * Issue 16's event figures: the same end-to-end run without and with a receiver subscribed to
 * message.receipt, then a receiver down while `backlog` receipts become events, brought back.
 * The receiver is a keep-alive HTTP server in this process that answers 200 at once; the run
 * with webhooks is made twice, to an http receiver and to an https one (a self-signed
 * certificate the gateway trusts through webhooks.caFile), as most real receivers are https.
 */
class CountingReceiver {
  readonly ids = new Set<string>();
  requests = 0;
  firstAt = 0;
  lastAt = 0;
  private server: Server | undefined;

  async start(port = 0, tls?: Certificate): Promise<string> {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        const now = performance.now();
        this.firstAt ||= now;
        this.lastAt = now;
        this.requests++;
        this.ids.add(String(req.headers['webhook-id']));
        res.writeHead(200, { 'content-length': '0' }).end();
      });
    };
    this.server = tls ? createTlsServer(tls, handler) : createServer(handler);
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => this.server?.listen(port, '127.0.0.1', r));
    const scheme = tls ? 'https' : 'http';
    return `${scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}/events`;
  }

  /** Forgets what came so far (the warm-up's test event). */
  reset(): void {
    this.ids.clear();
    this.requests = this.firstAt = this.lastAt = 0;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

const CONFIG = { webhooks: { allowPrivate: true } };

interface Certificate {
  file: string;
  cert: Buffer;
  key: Buffer;
}

/** A self-signed certificate for 127.0.0.1, made by the openssl CLI Debian has. */
function selfSigned(dir: string): Certificate {
  const [file, keyFile] = [join(dir, 'receiver-cert.pem'), join(dir, 'receiver-key.pem')];
  const made = spawnSync('openssl', [
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
    ...['-keyout', keyFile, '-out', file, '-addext', 'subjectAltName=IP:127.0.0.1'],
  ]);
  if (made.status !== 0)
    throw new Error('the https receiver needs the openssl CLI for its certificate');
  return { file, cert: readFileSync(file), key: readFileSync(keyFile) };
}

/** Where the run's events go: nowhere, an http receiver, or an https one. */
type Hooks = 'off' | 'http' | 'https';

/** Subscribes `url` to message.receipt; answers the endpoint's id. */
async function subscribe(api: Api, url: string): Promise<string> {
  const { json } = await api.call({
    Action: 'CreateWebhookEndpoint',
    AccountId: api.gw.accountId,
    Url: url,
    EventTypes: ['message.receipt'],
  });
  if (json.RetCode !== 0) throw new Error(`CreateWebhookEndpoint: ${JSON.stringify(json)}`);
  return String(json.EndpointId);
}

/**
 * Waits for a test event to reach the receiver, then forgets it: the outbox thread starts with
 * the first endpoint, and the run measures delivery under way, not that start.
 */
async function warmUp(api: Api, rx: CountingReceiver, endpointId: string): Promise<void> {
  const { json } = await api.call({
    Action: 'SendWebhookTestEvent',
    AccountId: api.gw.accountId,
    EndpointId: endpointId,
  });
  if (json.RetCode !== 0) throw new Error(`SendWebhookTestEvent: ${JSON.stringify(json)}`);
  if (!(await waitFor(() => rx.requests > 0, 30))) throw new Error('the test event never came');
  rx.reset();
}

/** Sends `messages` and waits for every final receipt; answers the accepted count and times. */
async function sendAndDrain(o: Options, b: Bench, phones: PhoneSequence, messages: number) {
  const bodies = makeBodies(b, phones, Math.ceil(messages / o.batch), o.batch);
  const window = CpuWindow.start(b.gw.pid);
  const load = await runLoad(b.api, bodies, o.clients, o.timeLimitS * 1000);
  const drain = await waitForReceipts(
    b.api,
    load.sessions,
    performance.now() + o.drainLimitS * 1000,
  );
  return { load, drain, cpu: window };
}

async function waitFor(done: () => boolean, limitS: number): Promise<boolean> {
  const end = performance.now() + limitS * 1000;
  while (!done() && performance.now() < end) await sleep(20);
  return done();
}

export interface EndToEnd {
  accepted: number;
  receiptsPerS: number;
  /** With webhooks: first request → last event received. */
  eventsDonePerS: number | undefined;
  events: number | undefined;
  /** With webhooks: the events received by the time the last receipt was final. */
  eventsAtLastReceipt: number | undefined;
  complete: boolean;
  cpuS: number;
  /** This process: the load generator and, with webhooks, the receiver (node:http). */
  benchCpuS: number;
  /** Every other process of the machine over the run: the SMSC simulator, mostly. */
  othersCpuS: number;
  /** How busy the machine's cores were over the run (1 = every core, all the time). */
  coresBusy: number;
  peakRssMb: number;
}

async function endToEnd(o: Options, phones: PhoneSequence, hooks: Hooks): Promise<EndToEnd> {
  const withHooks = hooks !== 'off';
  const name = { off: 'events-off', http: 'events-on', https: 'events-https' }[hooks];
  const dir = freshDataDir(o.workDir, name);
  const tls = hooks === 'https' ? selfSigned(dir) : undefined;
  const rx = new CountingReceiver();
  const url = await rx.start(0, tls);
  const config = tls ? { webhooks: { ...CONFIG.webhooks, caFile: tls.file } } : CONFIG;
  try {
    const { value, ended } = await withBench(
      o,
      dir,
      name,
      async (b) => {
        if (withHooks) await warmUp(b.api, rx, await subscribe(b.api, url));
        const { load, drain, cpu } = await sendAndDrain(o, b, phones, o.messages);
        // Keeping up: how many events had arrived when the last receipt was final.
        const eventsAtLastReceipt = rx.ids.size;
        const all = withHooks
          ? await waitFor(() => rx.ids.size >= load.accepted, o.drainLimitS)
          : true;
        const split = cpu.end();
        const wallS = (performance.now() - load.startMs) / 1000;
        const endS = (drain.doneMs - load.startMs) / 1000;
        const eventsS = (rx.lastAt - load.startMs) / 1000;
        return {
          accepted: load.accepted,
          receiptsPerS: drain.finals / endS,
          eventsDonePerS: withHooks ? rx.ids.size / eventsS : undefined,
          events: withHooks ? rx.ids.size : undefined,
          eventsAtLastReceipt: withHooks ? eventsAtLastReceipt : undefined,
          complete: drain.complete && all,
          cpuS: split.gatewayS,
          benchCpuS: split.benchS,
          othersCpuS: split.othersS,
          coresBusy:
            (split.gatewayS + split.benchS + split.othersS) / (wallS * availableParallelism()),
        };
      },
      config,
    );
    return { ...value, peakRssMb: gatewayFigures(ended).peakRssMb };
  } finally {
    await rx.stop();
  }
}

export interface Backlog {
  events: number;
  /** Receipts made while the receiver was down: the backlog built. */
  buildS: number;
  /** Receiver back → every event received. */
  drainS: number;
  drainPerS: number;
  /** Attempts the receiver saw beyond one per event (probes land while it is down: none). */
  extraRequests: number;
  rssAtDownMb: number;
  rssBeforeBackMb: number;
  peakRssMb: number;
  rssTimeline: [number, number][];
  complete: boolean;
}

/** The receiver down while `backlog` receipts are made, then back: RSS, and how fast it drains. */
async function backlog(o: Options, phones: PhoneSequence, events: number): Promise<Backlog> {
  const port = await portOf();
  const url = `http://127.0.0.1:${port}/events`;
  const dir = freshDataDir(o.workDir, 'events-backlog');
  const rx = new CountingReceiver();
  const { value, ended } = await withBench(
    o,
    dir,
    'events-backlog',
    async (b) => {
      await subscribe(b.api, url);
      const rssAtDownMb = b.sampler.sample()?.rssMb ?? NaN;
      const started = performance.now();
      const { drain } = await sendAndDrain(o, b, phones, events);
      const buildS = (performance.now() - started) / 1000;
      const rssBeforeBackMb = b.sampler.sample()?.rssMb ?? NaN;
      await rx.start(port);
      const back = performance.now();
      const complete = await waitFor(() => rx.ids.size >= drain.finals, o.drainLimitS * 4);
      const drainS = (rx.lastAt - back) / 1000;
      return {
        events: rx.ids.size,
        buildS,
        drainS,
        drainPerS: rx.ids.size / ((rx.lastAt - rx.firstAt) / 1000),
        extraRequests: rx.requests - rx.ids.size,
        rssAtDownMb,
        rssBeforeBackMb,
        complete: complete && drain.complete,
      };
    },
    { ...CONFIG, webhooks: { ...CONFIG.webhooks, timeoutMs: 2000 } },
  );
  await rx.stop();
  const g = gatewayFigures(ended);
  return { ...value, peakRssMb: g.peakRssMb, rssTimeline: g.rssTimeline };
}

async function portOf(): Promise<number> {
  const probe = new CountingReceiver();
  const url = await probe.start();
  await probe.stop();
  return Number(new URL(url).port);
}

export interface EventsFigures {
  off: EndToEnd;
  on: EndToEnd;
  onHttps: EndToEnd;
  backlog: Backlog | undefined;
}

export async function measureEvents(o: Options, phones: PhoneSequence): Promise<EventsFigures> {
  const off = await endToEnd(o, phones, 'off');
  const on = await endToEnd(o, phones, 'http');
  const onHttps = await endToEnd(o, phones, 'https');
  const back = o.backlog > 0 ? await backlog(o, phones, o.backlog) : undefined;
  return { off, on, onHttps, backlog: back };
}

/**
 * The rest of the machine and how full its cores were: with the cores full in the run without
 * webhooks, every microsecond an event costs (the receiver's included) comes off the receipts.
 */
function machineShare(r: EndToEnd): string {
  return `the simulator and others ${fmt.s(r.othersCpuS)}, cores busy ${Math.round(r.coresBusy * 100)} %`;
}

/** The rows of one run with a receiver: its rate, the ratio to the run without, its events. */
function withHooksRows(label: string, on: EndToEnd, off: EndToEnd): [string, string][] {
  const ratio = on.receiptsPerS / off.receiptsPerS;
  return [
    [
      `end to end, ${label} receiver on message.receipt`,
      `${fmt.int(on.accepted)} messages: **${fmt.int(on.receiptsPerS)}/s** to the last final receipt, gateway CPU ${fmt.s(on.cpuS)}, bench CPU (load + receiver) ${fmt.s(on.benchCpuS)}, ${machineShare(on)}, peak RSS ${fmt.mb(on.peakRssMb)}`,
    ],
    [`**with ${label} webhooks ÷ without**`, `**${(ratio * 100).toFixed(0)} %** (target ≥ 85 %)`],
    [
      `${label} events received (first request → last event)`,
      `${fmt.int(on.events ?? 0)} at ${fmt.int(on.eventsDonePerS ?? 0)}/s${on.complete ? '' : ' — INCOMPLETE'}`,
    ],
    [
      `${label} events received when the last receipt was final (keeping up)`,
      `${fmt.int(on.eventsAtLastReceipt ?? 0)} of ${fmt.int(on.accepted)} (${(((on.eventsAtLastReceipt ?? 0) / on.accepted) * 100).toFixed(0)} %)`,
    ],
  ];
}

export function eventsTable(f: EventsFigures): string {
  const rows: [string, string][] = [
    [
      'end to end, no webhooks',
      `${fmt.int(f.off.accepted)} messages: **${fmt.int(f.off.receiptsPerS)}/s** to the last final receipt, gateway CPU ${fmt.s(f.off.cpuS)}, bench CPU (load) ${fmt.s(f.off.benchCpuS)}, ${machineShare(f.off)}, peak RSS ${fmt.mb(f.off.peakRssMb)}`,
    ],
    ...withHooksRows('http', f.on, f.off),
    ...withHooksRows('https', f.onHttps, f.off),
  ];
  const b = f.backlog;
  if (b) {
    rows.push(
      [
        'backlog: receipts made while the receiver was down',
        `${fmt.int(b.events)} in ${fmt.s(b.buildS)}`,
      ],
      [
        'backlog: gateway RSS at the start / when the receiver came back / peak',
        `${fmt.mb(b.rssAtDownMb)} / ${fmt.mb(b.rssBeforeBackMb)} / ${fmt.mb(b.peakRssMb)}`,
      ],
      [
        '**backlog drained (receiver back → last event)**',
        `**${fmt.s(b.drainS)}, ${fmt.int(b.drainPerS)} events/s** (target ≥ 10,000/s)${b.complete ? '' : ' — INCOMPLETE'}`,
      ],
      ['requests beyond one per event', fmt.int(b.extraRequests)],
    );
  }
  return table(rows);
}
