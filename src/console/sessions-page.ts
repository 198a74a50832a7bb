import type { BusinessMessageView } from '../domain/messages/message.js';
import type { SessionMessage, SessionView } from '../domain/views/views.js';
import { html, type Html } from './html.js';
import { page, utc, type PageContext } from './layout.js';

export type Lookup =
  | { kind: 'none' }
  | { kind: 'missing'; id: string }
  | { kind: 'session'; session: SessionView }
  | { kind: 'business'; message: BusinessMessageView };

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
      return html``;
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
    <td>${m.route}</td>
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
