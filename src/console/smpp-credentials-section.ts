/**
 * The Keys page's SMPP section (docs/smpp-server.md): an account's system_ids with their limits,
 * one created (its password shown once), one deleted. The same service as the admin API and CLI.
 */
import type { FastifyInstance } from 'fastify';
import type { SmppCredential } from '../domain/smpp-server/credential.js';
import { deleteCredential, saveCredential } from '../core/smpp-credentials.js';
import { accountOf, consoleAudit, type ConsoleContext } from './console-deps.js';
import { guardedRoute, sendPage, type PageRequest } from './console-routes.js';
import { formReader, text } from './forms.js';
import { html, type Html } from './html.js';
import { csrfField, dangerButton, utc } from './layout.js';
import { termsFields, termsOfForm } from './api-keys-section.js';

export type CreatedSmpp = { systemId: string; password: string };

const CredentialForm = formReader({ systemId: text(64), password: text(64), networks: text(1000) });
const DeleteForm = formReader({ systemId: text(64) });

/** Posts of the section; `show` renders the Keys page with what was just created. */
export function registerSmppCredentialRoutes(
  app: FastifyInstance,
  ctx: ConsoleContext,
  show: (request: PageRequest, accountId: number, smpp: CreatedSmpp) => Promise<Html>,
): void {
  app.post(
    '/console/keys/smpp',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const form = CredentialForm(request.body);
      const networks = form.networks
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      const made = await saveCredential(
        ctx.store,
        accountId,
        {
          systemId: form.systemId,
          password: form.password === '' ? undefined : form.password,
          allowedNetworks: networks,
          terms: termsOfForm(request.body),
        },
        ctx.clock.now(),
      );
      const created = { systemId: made.credential.systemId, password: made.password };
      const fact = { action: 'smpp_credential.saved', target: created.systemId, accountId };
      const { keyId, scopes } = made.record;
      const detail = { KeyId: keyId, Scopes: scopes, AllowedNetworks: networks };
      await consoleAudit(ctx, request, { ...fact, detail });
      // A page, not a redirect: the password must not travel in a URL.
      return sendPage(
        reply.header('cache-control', 'no-store'),
        await show(request, accountId, created),
      );
    }),
  );
  app.post(
    '/console/keys/smpp/delete',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const { systemId } = DeleteForm(request.body);
      await deleteCredential(ctx.store, accountId, systemId);
      await consoleAudit(ctx, request, {
        action: 'smpp_credential.deleted',
        target: systemId,
        accountId,
      });
      return reply.redirect(`/console/keys?account=${accountId}`, 303);
    }),
  );
}

export function smppSection(
  csrf: string,
  view: { accountId: number; list: readonly SmppCredential[]; created?: CreatedSmpp },
): Html {
  const { accountId, list, created } = view;
  return html`<h2>SMPP credentials</h2>
    <p>
      ESMEs (Kannel, Jasmin, an application) bind to the SMPP server with a system_id and password
      (docs/smpp-server.md).
    </p>
    ${
      created
        ? html`<div class="notice" role="status" id="created-smpp">
            <p>Copy the password now: Wirebird keeps only its hash and never shows it again.</p>
            <p>system_id <code class="system-id">${created.systemId}</code></p>
            <p>password <code class="smpp-password">${created.password}</code></p>
          </div>`
        : ''
    }
    <table class="smpp">
      <thead>
        <tr>
          <th>system_id</th>
          <th>Networks</th>
          <th>Max binds</th>
          <th>Max submits/s</th>
          <th>Window</th>
          <th>Created (UTC)</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        ${list.map((c) => credentialRow(c, accountId, csrf))}
      </tbody>
    </table>
    ${list.length === 0 ? html`<p class="empty">Account ${accountId} has no SMPP credentials.</p>` : ''}
    <form method="post" action="/console/keys/smpp" class="smpp-create">
      ${csrfField(csrf)}<input type="hidden" name="account" value="${accountId}" />
      <label>system_id <input name="systemId" required maxlength="15" size="15" /></label>
      <label>Password <input name="password" maxlength="8" size="8" placeholder="made up" /></label>
      <label>Networks <input name="networks" placeholder="any (e.g. 10.0.0.0/8)" /></label>
      ${termsFields()}
      <button type="submit">Create an SMPP credential</button>
    </form>`;
}

function credentialRow(c: SmppCredential, accountId: number, csrf: string): Html {
  return html`<tr>
    <td><code>${c.systemId}</code></td>
    <td>${c.allowedNetworks.length === 0 ? 'any' : c.allowedNetworks.join(', ')}</td>
    <td>${c.maxBinds}</td>
    <td>${c.maxTps}</td>
    <td>${c.window}</td>
    <td>${utc(c.createdAt)}</td>
    <td>
      ${dangerButton(csrf, {
        action: '/console/keys/smpp/delete',
        accountId,
        fields: { systemId: c.systemId },
        label: 'Delete',
        confirm: `Delete ${c.systemId}? Its binds are ended, and new ones refused.`,
      })}
    </td>
  </tr>`;
}
