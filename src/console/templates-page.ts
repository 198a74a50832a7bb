import { STATUS_LABEL } from '../domain/templates/template-review.js';
import { TemplateStatus, type Template } from '../domain/templates/template.js';
import { html, type Html } from './html.js';
import { csrfField, page, utc, type PageContext } from './layout.js';

export function templatesPage(
  ctx: PageContext,
  list: readonly Template[],
  status: TemplateStatus | undefined,
  notice?: string,
): Html {
  const filters = [undefined, ...Object.values(TemplateStatus)].map((s) => {
    const label = s === undefined ? 'all' : (STATUS_LABEL[s] ?? String(s));
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
      ${list.length === 0 ? html`<p class="empty">No templates${status === undefined ? '' : ' in this status'}.</p>` : ''}`,
  );
}

function row(t: Template, ctx: PageContext, admin: boolean): Html {
  const status = STATUS_LABEL[t.status] ?? String(t.status);
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
    ${admin ? html`<td class="actions">${reviewForms(t, ctx.csrf)}</td>` : ''}
  </tr>`;
}

function reviewForms(t: Template, csrf: string): Html {
  const inReview = t.status === TemplateStatus.Pending || t.status === TemplateStatus.UnderReview;
  const action = (verb: string) => `/console/templates/${encodeURIComponent(t.templateId)}/${verb}`;
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
              aria-label="Reason for rejecting ${t.templateId}"
            />
            <button type="submit">Reject</button>
          </form>`
      : ''
  }
  ${
    t.status !== TemplateStatus.Disabled
      ? html`<form
          method="post"
          action="${action('disable')}"
          data-confirm="Disable ${t.templateId}?"
        >
          ${csrfField(csrf)}<button type="submit" class="danger">Disable</button>
        </form>`
      : ''
  }`;
}
