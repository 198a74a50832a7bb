import type { FastifyInstance } from 'fastify';
import type { AuditEntry } from '../domain/audit/audit.js';
import { problemPage } from './console-auth.js';
import { pageContext, sessionOf, type ConsoleContext } from './console-deps.js';
import { guardedRoute, sendPage } from './console-routes.js';
import { formReader, text } from './forms.js';
import { html, type Html } from './html.js';
import { page, utc, type PageContext } from './layout.js';

const SHOWN = 100;

const AuditQuery = formReader({ before: text(15) });

/** The admin's Audit page: who changed what and when, newest first, 100 at a time. */
export function registerAuditPage(app: FastifyInstance, ctx: ConsoleContext): void {
  app.get(
    '/console/audit',
    guardedRoute(async (request, reply) => {
      if (sessionOf(request).viewer.role !== 'admin')
        return problemPage(reply, 403, 'Refused', 'The audit log is for the admin.');
      const { before } = AuditQuery(request.query);
      const entries = await ctx.store.listAudit({
        ...(/^[0-9]+$/.test(before) ? { before: Number(before) } : {}),
        limit: SHOWN,
      });
      return sendPage(reply, auditPage(pageContext(ctx, request), entries));
    }),
  );
}

function auditPage(ctx: PageContext, entries: readonly AuditEntry[]): Html {
  const last = entries[entries.length - 1];
  return page(
    ctx,
    'audit',
    'Audit',
    html`<h1>Audit log</h1>
      <p>
        Who created, changed, approved, revoked or replayed what (docs/security.md). Never a secret.
      </p>
      <table class="audit">
        <thead>
          <tr>
            <th>Time (UTC)</th>
            <th>Account</th>
            <th>Who</th>
            <th>What</th>
            <th>Of</th>
            <th>Detail</th>
          </tr>
        </thead>
        <tbody>
          ${entries.map(
            (e) =>
              html`<tr>
                <td>${utc(e.at)}</td>
                <td>${e.accountId ?? ''}</td>
                <td><code>${e.actor}</code></td>
                <td>${e.action}</td>
                <td><code>${e.target}</code></td>
                <td><code>${JSON.stringify(e.detail)}</code></td>
              </tr>`,
          )}
        </tbody>
      </table>
      ${entries.length === 0 ? html`<p class="empty">Nothing recorded yet.</p>` : ''}
      ${entries.length === SHOWN && last ? html`<p><a href="/console/audit?before=${last.id}">Older</a></p>` : ''}`,
  );
}
