import type { BusinessMessageView } from '../domain/messages/message.js';
import type {
  SessionMessage,
  SessionResults,
  SessionSummary,
  SessionView,
} from '../domain/views/views.js';
import { html, type Html } from './html.js';
import { page, utc, type PageContext } from './layout.js';

export type Lookup =
  | { kind: 'none'; recent: readonly SessionSummary[] }
  | { kind: 'missing'; id: string }
  | { kind: 'session'; session: SessionView }
  | { kind: 'business'; message: BusinessMessageView };

/** Recent sessions listed when none is asked for. */
export const RECENT_SESSIONS_SHOWN = 50;

const RESULT_COLUMNS = ['Success', 'Fail', 'SubmitFail', 'Unknow', 'pending'] as const;

function totals(r: SessionResults): Html {
  return html`${RESULT_COLUMNS.map((k) => html`<td class="count ${k}">${r[k]}</td>`)}`;
}

/** The newest sessions first, each with how its messages ended so far. */
function recentTable(list: readonly SessionSummary[]): Html {
  if (list.length === 0) return html`<p class="empty">No sessions yet: send a batch (README).</p>`;
  return html`<h2>Recent sessions</h2>
    <table class="recent">
      <thead>
        <tr>
          <th>SessionNo</th>
          <th>Account</th>
          <th>Accepted (UTC)</th>
          <th>Messages</th>
          ${RESULT_COLUMNS.map((k) => html`<th>${k}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${list.map(
          (s) =>
            html`<tr data-session="${s.sessionNo}">
              <td>
                <a href="/console/sessions?id=${encodeURIComponent(s.sessionNo)}"
                  ><code>${s.sessionNo}</code></a
                >
              </td>
              <td>${s.accountId}</td>
              <td>${utc(s.createdAt)}</td>
              <td>${s.acceptedCount}</td>
              ${totals(s.results)}
            </tr>`,
        )}
      </tbody>
    </table>`;
}

/** Shown per session; the rest is one GetUSMSSendReceipt (or `wirebird receipts`) away. */
export const SESSION_MESSAGES_SHOWN = 500;

export function sessionsPage(ctx: PageContext, id: string, found: Lookup): Html {
  return page(
    ctx,
    'sessions',
    'Sessions',
    html`<h1>Sessions</h1>
      <form method="get" action="/console/sessions" class="search">
        <input name="id" value="${id}" placeholder="SessionNo or MessageId" size="40" required />
        <button type="submit">Find</button>
      </form>
      ${result(found)}`,
  );
}

function result(found: Lookup): Html {
  switch (found.kind) {
    case 'none':
      return recentTable(found.recent);
    case 'missing':
      return html`<p class="problem" role="alert">
        No session or message ${found.id} for this login.
      </p>`;
    case 'session':
      return sessionTable(found.session);
    case 'business':
      return businessMessage(found.message);
  }
}

function sessionTable(s: SessionView): Html {
  const shown =
    s.messages.length < s.acceptedCount ? ` (the first ${s.messages.length} shown)` : '';
  return html`<section class="session">
    <h2>Session <code>${s.sessionNo}</code></h2>
    <p>
      Account ${s.accountId} · ${s.acceptedCount} messages accepted at ${utc(s.createdAt)}
      UTC${shown}
    </p>
    <p class="results">
      ${RESULT_COLUMNS.map(
        (k) => html`<span class="count ${k}">${k} <b>${s.results[k]}</b></span> `,
      )}
    </p>
    <table>
      <thead>
        <tr>
          <th>Phone</th>
          <th>Text</th>
          <th>Route</th>
          <th>Segments</th>
          <th>State</th>
          <th>Attempts</th>
          <th>Receipt</th>
          <th>UserId</th>
        </tr>
      </thead>
      <tbody>
        ${s.messages.map(messageRow)}
      </tbody>
    </table>
  </section>`;
}

function messageRow(m: SessionMessage): Html {
  const receipt = m.receiptResult
    ? html`<span class="result ${m.receiptResult === 'Success' ? 'ok' : 'bad'}"
          >${m.receiptResult}</span
        >
        ${m.receiptCode}
        ${m.receiptDesc}${m.receiptTime ? html` · ${utc(m.receiptTime * 1000)}` : ''}`
    : html`<span class="result pending">none yet</span>`;
  return html`<tr>
    <td>${m.phone}</td>
    <td class="text">${m.text}</td>
    <td>${m.route}${m.upstream ? html` · ${m.upstream}` : ''}</td>
    <td>${m.costCount}</td>
    <td>${m.state}${m.lastError ? html`<div class="reason">${m.lastError}</div>` : ''}</td>
    <td>${m.attempts}</td>
    <td>${receipt}</td>
    <td>${m.userId}</td>
  </tr>`;
}

function businessMessage(m: BusinessMessageView): Html {
  return html`<section class="session">
    <h2>Business message <code>${m.messageId}</code></h2>
    <p>
      Account ${m.accountId} · ${m.type} from ${m.businessPhone} to ${m.to} · route ${m.route} ·
      status ${m.status} · ${m.attempts} attempts
    </p>
    <table>
      <thead>
        <tr>
          <th>Time (UTC)</th>
          <th>Status</th>
          <th>Code</th>
          <th>Description</th>
        </tr>
      </thead>
      <tbody>
        ${m.history.map(
          (e) =>
            html`<tr>
              <td>${utc(e.at)}</td>
              <td>${e.status}</td>
              <td>${e.code}</td>
              <td>${e.desc}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}
