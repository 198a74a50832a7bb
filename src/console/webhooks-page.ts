import type { AttemptView, DeliveryView, WebhookEndpoint } from '../domain/events/endpoint.js';
import { EVENT_TYPES, webhookId } from '../domain/events/event.js';
import { html, type Html } from './html.js';
import { accountPicker, csrfField, page, utc, type PageContext } from './layout.js';

/** What a page shows once: a notice, or a secret just made (never again). */
export interface Shown {
  notice?: string;
  secret?: { endpointId: string; value: string };
}

interface WebhooksView {
  accountId: number;
  endpoints: readonly WebhookEndpoint[];
  deliveries: readonly DeliveryView[];
  shown?: Shown;
}

export function webhooksPage(ctx: PageContext, v: WebhooksView): Html {
  return page(
    ctx,
    'webhooks',
    'Webhooks',
    html`<h1>Webhooks</h1>
      <p>
        Events pushed to account ${v.accountId}'s URLs, signed per Standard Webhooks
        (docs/events.md).
      </p>
      ${accountPicker(ctx, 'webhooks', v.accountId)} ${v.shown ? shownNotice(v.shown) : ''}
      <h2>Endpoints</h2>
      <div class="scroll">
        <table class="endpoints">
          <thead>
            <tr>
              <th>Endpoint</th>
              <th>URL</th>
              <th>Events</th>
              <th>State</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            ${v.endpoints.map((e) => endpointRow(ctx, v.accountId, e))}
          </tbody>
        </table>
      </div>
      ${v.endpoints.length === 0 ? html`<p class="empty">No endpoints yet.</p>` : ''}
      <h2>Add an endpoint</h2>
      ${createForm(ctx, v.accountId)}
      <h2>Latest deliveries</h2>
      ${deliveriesTable(v.accountId, v.deliveries)}`,
  );
}

function shownNotice(shown: Shown): Html {
  if (shown.secret) {
    return html`<div class="notice" role="status" id="webhook-secret">
      <p>
        The signing secret of ${shown.secret.endpointId}. Copy it now: Wirebird keeps it sealed and
        never shows it again.
      </p>
      <p><code class="secret">${shown.secret.value}</code></p>
    </div>`;
  }
  return html`<div class="notice" role="status">${shown.notice ?? ''}</div>`;
}

function state(e: WebhookEndpoint): Html {
  if (e.disabled) return html`<span class="bad">disabled</span> ${e.disabledReason}`;
  if (e.failingSince !== undefined)
    return html`<span class="warn">failing since ${utc(e.failingSince)}</span>`;
  return html`<span class="ok">enabled</span>`;
}

function button(
  ctx: PageContext,
  o: { accountId: number; endpointId: string; verb: string; label: string; confirm?: string },
): Html {
  return html`<form
    method="post"
    action="/console/webhooks/${o.endpointId}/${o.verb}"
    ${o.confirm ? html`data-confirm="${o.confirm}"` : ''}
  >
    ${csrfField(ctx.csrf)}<input type="hidden" name="account" value="${o.accountId}" />
    <button type="submit" ${o.verb === 'delete' ? html`class="danger"` : ''}>${o.label}</button>
  </form>`;
}

function endpointRow(ctx: PageContext, accountId: number, e: WebhookEndpoint): Html {
  const b = (verb: string, label: string, confirm?: string) =>
    button(ctx, {
      accountId,
      endpointId: e.endpointId,
      verb,
      label,
      ...(confirm ? { confirm } : {}),
    });
  return html`<tr>
    <td><code>${e.endpointId}</code><br />${e.description}</td>
    <td><code>${e.url}</code></td>
    <td>${e.eventTypes.length === 0 ? 'all' : e.eventTypes.join(', ')}</td>
    <td>${state(e)}</td>
    <td class="buttons">
      ${b('test', 'Send test event')}
      ${e.disabled ? b('enable', 'Enable') : b('disable', 'Disable')}
      ${b('rotate', 'Rotate secret', 'A new secret signs from now on; the old one signs beside it for a day.')}
      ${b('delete', 'Delete', `Delete ${e.endpointId} and its deliveries?`)}
    </td>
  </tr>`;
}

function createForm(ctx: PageContext, accountId: number): Html {
  return html`<form method="post" action="/console/webhooks" class="create-endpoint">
    ${csrfField(ctx.csrf)}<input type="hidden" name="account" value="${accountId}" />
    <label
      >URL
      <input
        name="url"
        type="url"
        required
        size="40"
        placeholder="https://app.example.com/wirebird"
    /></label>
    <label>Description <input name="description" maxlength="256" /></label>
    <fieldset>
      <legend>Events (none checked: every type)</legend>
      ${EVENT_TYPES.map((t) => html`<label><input type="checkbox" name="types" value="${t}" /> ${t}</label>`)}
    </fieldset>
    <button type="submit">Add endpoint</button>
  </form>`;
}

function deliveriesTable(accountId: number, list: readonly DeliveryView[]): Html {
  if (list.length === 0) return html`<p class="empty">No deliveries yet.</p>`;
  return html`<div class="scroll">
    <table class="deliveries">
      <thead>
        <tr>
          <th>Event</th>
          <th>Type</th>
          <th>Endpoint</th>
          <th>State</th>
          <th>Attempts</th>
          <th>Last answer</th>
          <th>Latency</th>
          <th>Next attempt</th>
        </tr>
      </thead>
      <tbody>
        ${list.map(
          (d) =>
            html`<tr>
              <td>
                <a
                  href="/console/webhooks/deliveries/${d.endpointId}/${d.eventId}?account=${accountId}"
                  >${webhookId(d.eventId)}</a
                >
              </td>
              <td>${d.type}</td>
              <td><code>${d.endpointId}</code></td>
              <td>${d.state}</td>
              <td>${d.attempts}</td>
              <td>${d.lastStatus ?? d.lastError}</td>
              <td>${d.latencyMs === undefined ? '' : `${d.latencyMs} ms`}</td>
              <td>${d.nextAt === undefined ? '' : utc(d.nextAt)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** One delivery: its attempts with their answers and times, the body sent, and Replay. */
export function deliveryPage(
  ctx: PageContext,
  v: { accountId: number; delivery: DeliveryView; attempts: readonly AttemptView[]; body: string },
): Html {
  const d = v.delivery;
  return page(
    ctx,
    'webhooks',
    webhookId(d.eventId),
    html`<h1>${webhookId(d.eventId)} to ${d.endpointId}</h1>
      <p>${d.type} · ${d.state} · created ${utc(d.createdAt)}</p>
      <div class="scroll">
        <table class="attempts">
          <thead>
            <tr>
              <th>#</th>
              <th>At (UTC)</th>
              <th>Status</th>
              <th>Latency</th>
              <th>Error</th>
            </tr>
          </thead>
          <tbody>
            ${v.attempts.map(
              (a) =>
                html`<tr>
                  <td>${a.attempt}</td>
                  <td>${utc(a.at)}</td>
                  <td>${a.statusCode ?? '—'}</td>
                  <td>${a.latencyMs} ms</td>
                  <td>${a.error}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${v.attempts.length === 0 ? html`<p class="empty">Not attempted yet.</p>` : ''}
      <h2>Body sent</h2>
      <pre class="body">${v.body}</pre>
      <form method="post" action="/console/webhooks/${d.endpointId}/replay">
        ${csrfField(ctx.csrf)}<input type="hidden" name="account" value="${v.accountId}" />
        <input type="hidden" name="eventId" value="${d.eventId}" />
        <button type="submit">Replay</button>
      </form>
      <p><a href="/console/webhooks?account=${v.accountId}">Back to Webhooks</a></p>`,
  );
}
