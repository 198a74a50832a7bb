import type { ChannelStatus } from '../channels/channel.js';
import type { QueueStats } from '../domain/views/views.js';
import type { RatePoint } from '../metrics/history.js';
import { html, type Html } from './html.js';
import { page, utc, type PageContext } from './layout.js';
import { lineChart } from './svg-chart.js';

export interface HealthData {
  now: number;
  rates: RatePoint[];
  channels: ChannelStatus[];
  queue: QueueStats;
  /** Binds open on the SMPP server by system_id; undefined when it is off. */
  smppBinds: ReadonlyMap<string, number> | undefined;
}

const HOUR = 3600_000;

export function healthPage(ctx: PageContext, d: HealthData): Html {
  const range = { from: d.now - HOUR, to: d.now };
  const at = (pick: (r: RatePoint) => number | undefined) =>
    d.rates.map((r) => ({ at: r.at, value: pick(r) }));
  const perSecond = (v: number) => `${v < 10 ? v.toFixed(1) : Math.round(v)}/s`;
  return page(
    ctx,
    'health',
    'Health',
    html`<h1>Health</h1>
      ${figures(d, perSecond)}
      ${lineChart(
        'Throughput, last hour',
        [
          { label: 'accepted', cls: 'accepted', points: at((r) => r.acceptedPerS) },
          { label: 'submitted', cls: 'submitted', points: at((r) => r.submittedPerS) },
          { label: 'receipts', cls: 'receipts', points: at((r) => r.receiptsPerS) },
        ],
        { range, yMax: undefined, format: perSecond },
      )}
      ${lineChart(
        'Delivery rate (Success among receipts), last hour',
        [{ label: 'delivered', cls: 'delivered', points: at((r) => r.deliveryRate) }],
        { range, yMax: 1, format: (v) => `${Math.round(v * 100)}%` },
      )}
      <h2>Channels</h2>
      <table class="channels">
        <thead>
          <tr>
            <th>Channel</th>
            <th>State</th>
            <th>Upstream</th>
            <th>Bind</th>
            <th>Bind state</th>
            <th>Outstanding</th>
          </tr>
        </thead>
        <tbody>
          ${d.channels.map(channelRows)}
        </tbody>
      </table>
      ${smppSection(d.smppBinds)}
      <p class="note">
        Graphs sample this gateway's counters every 10 s since it started; Prometheus
        (<code>/metrics</code>) keeps longer history.
      </p>`,
  );
}

/** The figures above the graphs: the queue now, and the last interval's rates. */
function figures(d: HealthData, perSecond: (v: number) => string): Html {
  const last = d.rates[d.rates.length - 1];
  // Messages held for a later SendAt are not a backlog: they are shown apart, and the oldest
  // due is only of those due by now.
  const oldest =
    d.queue.oldestDueAt === undefined
      ? '—'
      : `${((d.now - d.queue.oldestDueAt) / 1000).toFixed(1)} s`;
  return html`<p class="figures">
    <span>Queue depth <b id="queue-depth">${Math.max(0, d.queue.depth - d.queue.held)}</b></span>
    <span>Oldest due <b id="oldest-due">${oldest}</b></span>
    <span>Held for later <b id="held">${d.queue.held}</b></span>
    <span>Accepted <b>${perSecond(last?.acceptedPerS ?? 0)}</b></span>
    <span>Receipts <b>${perSecond(last?.receiptsPerS ?? 0)}</b></span>
    <small>at ${utc(d.now)} UTC; refreshes every 10 s</small>
  </p>`;
}

/** Who is bound to the SMPP server on this node (docs/smpp-server.md). */
function smppSection(binds: ReadonlyMap<string, number> | undefined): Html {
  if (!binds) return html``;
  const open = [...binds].filter(([, n]) => n > 0);
  return html`<h2>SMPP server</h2>
    ${
      open.length === 0
        ? html`<p class="empty" id="smpp-binds">No ESME is bound to this node.</p>`
        : html`<table class="smpp-binds" id="smpp-binds">
            <thead>
              <tr>
                <th>system_id</th>
                <th>Binds open</th>
              </tr>
            </thead>
            <tbody>
              ${open.map(
                ([id, n]) =>
                  html`<tr>
                    <td><code>${id}</code></td>
                    <td>${n}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }`;
}

function channelRows(c: ChannelStatus): Html {
  const state = html`<span class="state ${c.state}">${c.state}</span>`;
  if (c.binds.length === 0)
    return html`<tr data-channel="${c.name}">
      <td>${c.name}</td>
      <td>${state}</td>
      <td colspan="4">${c.note ?? 'no binds'}</td>
    </tr>`;
  return html`${c.binds.map(
    (b) =>
      html`<tr data-channel="${c.name}">
        <td>${c.name}</td>
        <td>${state}</td>
        <td>${b.upstream}</td>
        <td>${b.bind}</td>
        <td><span class="state ${b.state}">${b.state}</span></td>
        <td>${b.outstanding}</td>
      </tr>`,
  )}`;
}
