import { STATUS_LABEL } from '../domain/templates/template-review.js';
import type { Signature } from '../domain/signatures/signature.js';
import { TemplateStatus, type Template } from '../domain/templates/template.js';
import { html, type Html } from './html.js';
import { csrfField, page, utc, type PageContext } from './layout.js';

export function templatesPage(
  ctx: PageContext,
  view: {
    list: readonly Template[];
    signatures: readonly Signature[];
    status: TemplateStatus | undefined;
    notice?: string;
  },
): Html {
  const { list, signatures, status, notice } = view;
  const filters = [undefined, ...Object.values(TemplateStatus)].map((s) => {
    const label = s === undefined ? 'all' : STATUS_LABEL[s];
    const href = s === undefined ? '/console/templates' : `/console/templates?status=${s}`;
    return html`<a href="${href}" ${s === status ? html` aria-current="true"` : ''}>${label}</a>`;
  });
  const admin = ctx.viewer.role === 'admin';
  return page(
    ctx,
    'templates',
    'Templates',
    html`<h1>Templates</h1>
      <nav class="filters">${filters}</nav>
      ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
      <table class="templates">
        <thead>
          <tr>
            <th>TemplateId</th>
            <th>Account</th>
            <th>Name</th>
            <th>Template</th>
            <th>Status</th>
            <th>Updated (UTC)</th>
            ${admin ? html`<th>Review</th>` : ''}
          </tr>
        </thead>
        <tbody>
          ${list.map((t) => row(t, ctx, admin))}
        </tbody>
      </table>
      ${list.length === 0 ? html`<p class="empty">No templates${status === undefined ? '' : ' in this status'}.</p>` : ''}
      ${signaturesTable(signatures, ctx, admin)}`,
  );
}

/** Signatures (UCloud dialect, docs/ucloud-sdk.md) are reviewed here like templates. */
function signaturesTable(list: readonly Signature[], ctx: PageContext, admin: boolean): Html {
  if (list.length === 0) return html``;
  return html`<h2>Signatures</h2>
    <table class="signatures">
      <thead>
        <tr>
          <th>SigId</th>
          <th>Account</th>
          <th>Signature</th>
          <th>Status</th>
          <th>Updated (UTC)</th>
          ${admin ? html`<th>Review</th>` : ''}
        </tr>
      </thead>
      <tbody>
        ${list.map(
          (s) =>
            html`<tr id="signature-${s.sigId}" data-status="${s.status}">
              <td><code>${s.sigId}</code></td>
              <td>${s.accountId}</td>
              <td>${s.sigContent}</td>
              <td>
                <span class="status s${s.status}">${STATUS_LABEL[s.status]}</span
                >${s.errDesc ? html`<div class="reason">${s.errDesc}</div>` : ''}
              </td>
              <td>${utc(s.updatedAt)}</td>
              ${
                admin
                  ? html`<td class="actions">
                      ${reviewForms({ id: s.sigId, status: s.status, path: '/console/signatures' }, ctx.csrf)}
                    </td>`
                  : ''
              }
            </tr>`,
        )}
      </tbody>
    </table>`;
}

function row(t: Template, ctx: PageContext, admin: boolean): Html {
  const status = STATUS_LABEL[t.status];
  return html`<tr id="template-${t.templateId}" data-status="${t.status}">
    <td><code>${t.templateId}</code></td>
    <td>${t.accountId}</td>
    <td>${t.templateName}</td>
    <td class="text">${t.template}</td>
    <td>
      <span class="status s${t.status}">${status}</span
      >${t.errDesc ? html`<div class="reason">${t.errDesc}</div>` : ''}
    </td>
    <td>${utc(t.updatedAt)}</td>
    ${
      admin
        ? html`<td class="actions">
            ${reviewForms({ id: t.templateId, status: t.status, path: '/console/templates' }, ctx.csrf)}
          </td>`
        : ''
    }
  </tr>`;
}

/** Approve, reject (with a reason) and disable forms for a template or a signature. */
function reviewForms(t: { id: string; status: TemplateStatus; path: string }, csrf: string): Html {
  const inReview = t.status === TemplateStatus.Pending || t.status === TemplateStatus.UnderReview;
  const action = (verb: string) => `${t.path}/${encodeURIComponent(t.id)}/${verb}`;
  return html`${
    inReview
      ? html`<form method="post" action="${action('approve')}">
            ${csrfField(csrf)}<button type="submit">Approve</button>
          </form>
          <form method="post" action="${action('reject')}" class="reject">
            ${csrfField(csrf)}
            <input
              name="reason"
              placeholder="Reason"
              required
              maxlength="500"
              aria-label="Reason for rejecting ${t.id}"
            />
            <button type="submit">Reject</button>
          </form>`
      : ''
  }
  ${
    t.status !== TemplateStatus.Disabled
      ? html`<form method="post" action="${action('disable')}" data-confirm="Disable ${t.id}?">
          ${csrfField(csrf)}<button type="submit" class="danger">Disable</button>
        </form>`
      : ''
  }`;
}
