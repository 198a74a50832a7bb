import { html, type Html } from './html.js';
import { accountPicker, csrfField, page, utc, type PageContext } from './layout.js';

/** The policy as core/account-policy.ts answers it, and the ledger's newest rows. */
export interface PolicyView {
  accountId: number;
  policy: Record<string, unknown>;
  entries: Record<string, unknown>[];
  notice: string;
}

/** A field of the policy's answer: a string, a number, a boolean, a list of codes, or null. */
function shown(v: unknown): string {
  if (Array.isArray(v)) return v.join(', ');
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/**
 * The Policy page (docs/accounts.md): what an account may send, its balance and today's use.
 * An account sees its own; the admin changes it and adds credit.
 */
export function policyPage(ctx: PageContext, v: PolicyView): Html {
  const admin = ctx.viewer.role === 'admin';
  const p = v.policy;
  return page(
    ctx,
    'policy',
    'Policy',
    html`<h1>Policy</h1>
      <p>
        What account ${v.accountId} may send (docs/accounts.md). Today (UTC ${shown(p.Day)}):
        <strong class="used-today">${shown(p.UsedToday)}</strong> CostCount used; balance
        <strong class="balance">${shown(p.Balance)}</strong>.
      </p>
      ${admin ? accountPicker(ctx, 'policy', v.accountId) : ''}
      ${v.notice ? html`<div class="notice" role="status">${v.notice}</div>` : ''}
      ${admin ? policyForm(ctx, v) : policyTable(p)}
      <h2>Credit ledger</h2>
      ${admin ? creditForm(ctx, v.accountId) : ''} ${ledgerTable(v.entries)}`,
  );
}

function policyTable(p: Record<string, unknown>): Html {
  const row = (label: string, value: unknown, none: string) =>
    html`<tr>
      <th>${label}</th>
      <td>${shown(value) || none}</td>
    </tr>`;
  return html`<table class="policy">
    ${row('Countries', p.Countries, 'anywhere')} ${row('MaxPerSecond', p.MaxPerSecond, 'no limit')}
    ${row('DailyLimit', p.DailyLimit, 'no limit')}
    ${row('RecipientHourlyLimit', p.RecipientHourlyLimit, 'no limit')}
    ${row('Prepaid', p.Prepaid ? 'yes' : 'no', '')}
  </table>`;
}

function policyForm(ctx: PageContext, v: PolicyView): Html {
  const p = v.policy;
  const field = (name: string, label: string, hint: string) =>
    html`<label
      >${label} <input name="${name}" value="${shown(p[label])}" placeholder="${hint}"
    /></label>`;
  return html`<form method="post" action="/console/policy" class="policy-form">
    ${csrfField(ctx.csrf)}<input type="hidden" name="account" value="${v.accountId}" />
    ${field('countries', 'Countries', 'anywhere; or US, GB')}
    ${field('maxPerSecond', 'MaxPerSecond', 'no limit')}
    ${field('dailyLimit', 'DailyLimit', 'no limit')}
    ${field('recipientHourlyLimit', 'RecipientHourlyLimit', 'no limit')}
    <label
      ><input type="checkbox" name="prepaid" ${p.Prepaid ? html`checked` : ''} /> Prepaid: each SMS
      is paid from the balance</label
    >
    <p class="hint">An empty field removes that limit.</p>
    <button type="submit">Save policy</button>
  </form>`;
}

function creditForm(ctx: PageContext, accountId: number): Html {
  return html`<form method="post" action="/console/policy/credit" class="credit-form">
    ${csrfField(ctx.csrf)}<input type="hidden" name="account" value="${accountId}" />
    <label>CostCount <input name="costCount" inputmode="numeric" required /></label>
    <label>Reference <input name="reference" maxlength="200" required /></label>
    <button type="submit">Add credit</button>
  </form>`;
}

function ledgerTable(entries: readonly Record<string, unknown>[]): Html {
  if (entries.length === 0) return html`<p class="empty">No credit added or spent yet.</p>`;
  return html`<div class="scroll">
    <table class="ledger">
      <thead>
        <tr>
          <th>When (UTC)</th>
          <th>Kind</th>
          <th>CostCount</th>
          <th>Reference</th>
        </tr>
      </thead>
      <tbody>
        ${entries.map(
          (e) =>
            html`<tr>
              <td>${utc(Number(e.CreateTime) * 1000)}</td>
              <td>${shown(e.Kind)}</td>
              <td>${shown(e.CostCount)}</td>
              <td>${shown(e.Reference)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
