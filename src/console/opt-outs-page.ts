import type { OptOut, OptOutSettings } from '../domain/opt-out/opt-out.js';
import { html, type Html } from './html.js';
import { accountPicker, csrfField, page, utc, type PageContext } from './layout.js';

interface OptOutsView {
  accountId: number;
  page: { optOuts: OptOut[]; nextCursor: string | undefined };
  settings: OptOutSettings;
  notice: string;
}

export function optOutsPage(ctx: PageContext, v: OptOutsView): Html {
  const account = html`${csrfField(ctx.csrf)}<input
      type="hidden"
      name="account"
      value="${v.accountId}"
    />`;
  return page(
    ctx,
    'opt-outs',
    'Opt-outs',
    html`<h1>Opt-outs</h1>
      <p>Numbers account ${v.accountId} does not send to (docs/opt-out.md).</p>
      ${accountPicker(ctx, 'opt-outs', v.accountId)}
      ${v.notice ? html`<div class="notice" role="status">${v.notice}</div>` : ''}
      ${optOutsTable(v, account)}
      <h2>Add numbers</h2>
      <form method="post" action="/console/opt-outs" class="add-opt-outs">
        ${account}
        <label
          >Opt out these numbers (one per line)<textarea name="phones" rows="4" required></textarea>
        </label>
        <button type="submit">Opt out</button>
      </form>
      <h2>Keywords</h2>
      ${keywordsForm(v.settings, account)}`,
  );
}

function optOutsTable(v: OptOutsView, account: Html): Html {
  const more = v.page.nextCursor
    ? html`<p>
        <a
          href="/console/opt-outs?account=${v.accountId}&after=${encodeURIComponent(v.page.nextCursor)}"
          >More</a
        >
      </p>`
    : '';
  return html`<div class="scroll">
      <table class="opt-outs">
        <thead>
          <tr>
            <th>Phone</th>
            <th>How</th>
            <th>Keyword</th>
            <th>Since (UTC)</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          ${v.page.optOuts.map(
            (o) =>
              html`<tr>
                <td>${o.phone}</td>
                <td>${o.source}</td>
                <td>${o.keyword}</td>
                <td>${utc(o.createdAt)}</td>
                <td>
                  <form method="post" action="/console/opt-outs/remove">
                    ${account}<input type="hidden" name="phone" value="${o.phone}" />
                    <button type="submit">Remove</button>
                  </form>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${v.page.optOuts.length === 0 ? html`<p class="empty">No opted-out numbers.</p>` : ''} ${more}`;
}

function keywordsForm(s: OptOutSettings, account: Html): Html {
  return html`<form method="post" action="/console/opt-outs/settings" class="opt-out-settings">
    ${account}
    <label>Opt out <input name="out" size="60" value="${s.optOutKeywords.join(', ')}" /></label>
    <label>Opt back in <input name="in" size="60" value="${s.optInKeywords.join(', ')}" /></label>
    <label
      ><input type="checkbox" name="exempt" ${s.exemptVerification ? html`checked` : ''} />
      Verification codes (Purpose 1) still reach opted-out numbers</label
    >
    <button type="submit">Save keywords</button>
  </form>`;
}
