import type { HeldMessage } from '../domain/views/views.js';
import { html, type Html } from './html.js';
import { csrfField, page, utc, type PageContext } from './layout.js';

/** How much of a held message's text a row shows. */
const PREVIEW = 60;

export interface HeldView {
  /** The account filter: the viewer's own, the admin's choice, or undefined for every account. */
  accountId: number | undefined;
  session: string;
  due: string;
  held: HeldMessage[];
  /** The query of the next page, when there is one. */
  next: string | undefined;
  notice: string;
}

/** Scheduled messages not yet due (docs/console.md): filter, page, cancel one by one. */
export function heldPage(ctx: PageContext, v: HeldView): Html {
  return page(
    ctx,
    'held',
    'Scheduled',
    html`<h1>Scheduled</h1>
      <p>Messages held for a later SendAt, soonest first (docs/api.md, "SendAt").</p>
      ${filters(ctx, v)}
      ${v.notice ? html`<div class="notice" role="status">${v.notice}</div>` : ''}
      <div class="scroll">
        <table class="held">
          <thead>
            <tr>
              <th>Due (UTC)</th>
              <th>Session or MessageId</th>
              <th>To</th>
              <th>Expires (UTC)</th>
              <th>Text</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            ${v.held.map((m) => row(ctx, m))}
          </tbody>
        </table>
      </div>
      ${v.held.length === 0 ? html`<p class="empty">Nothing is scheduled.</p>` : ''}
      ${v.next ? html`<p><a href="/console/held?${v.next}">More</a></p>` : ''}`,
  );
}

function filters(ctx: PageContext, v: HeldView): Html {
  const account =
    ctx.viewer.role === 'admin'
      ? html`<label
          >Account <input name="account" value="${v.accountId ?? ''}" size="6" placeholder="all"
        /></label>`
      : '';
  return html`<form method="get" action="/console/held" class="held-filter">
    ${account}
    <label>Session <input name="session" value="${v.session}" size="22" /></label>
    <label>Due before (UTC) <input name="due" type="datetime-local" value="${v.due}" /></label>
    <button type="submit">Show</button>
  </form>`;
}

function row(ctx: PageContext, m: HeldMessage): Html {
  const which = m.sessionNo ?? m.messageId ?? '';
  const preview = m.body.length > PREVIEW ? `${m.body.slice(0, PREVIEW)}…` : m.body;
  return html`<tr>
    <td>${utc(m.dueAt)}</td>
    <td><a href="/console/sessions?id=${encodeURIComponent(which)}">${which}</a></td>
    <td>${m.phone}</td>
    <td>
      ${m.expiresAt === undefined ? html`<span class="muted">never (no ValidityPeriod)</span>` : utc(m.expiresAt)}
    </td>
    <td>${preview}</td>
    <td>
      <form method="post" action="/console/held/cancel">
        ${csrfField(ctx.csrf)}<input type="hidden" name="account" value="${m.accountId}" />
        <input type="hidden" name="id" value="${which}" />
        <input type="hidden" name="kind" value="${m.kind}" />
        <input type="hidden" name="phone" value="${m.e164}" />
        <button type="submit">Cancel</button>
      </form>
    </td>
  </tr>`;
}
