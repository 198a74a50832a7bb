/**
 * The Keys page's API keys and console sessions (docs/security.md): an account's keys listed by
 * id and prefix, one created by the admin (shown once) or revoked; the console sessions open now,
 * ended one by one or all at once by the admin. The same services as the admin API and CLI.
 */
import type { FastifyInstance } from 'fastify';
import { createApiKey, revokeApiKey } from '../core/api-keys.js';
import { sessionLabel, type ConsoleSessionRecord } from '../domain/access/console-session.js';
import {
  KEY_SCOPES,
  KIND_NAMES,
  checkKeyName,
  keyState,
  type KeyRecord,
  type KeyKind,
} from '../domain/keys/key-record.js';
import { accountOf, adminOnly, consoleAudit, type ConsoleContext } from './console-deps.js';
import { guardedRoute, sendPage, type PageRequest } from './console-routes.js';
import { formReader, text } from './forms.js';
import type { KeyTerms } from '../keys/key-records.js';
import { html, type Html } from './html.js';
import { csrfField, dangerButton, utc } from './layout.js';

const KeyForm = formReader({ keyId: text(64) });
const SessionForm = formReader({ session: text(64) });

/** What revoking a key of each kind does, as the confirmation says it. */
const REVOKED_MEANS: Record<KeyKind, string> = {
  api: 'It is refused from the next request on.',
  smpp: 'Its binds are ended within a second, and new ones refused.',
  ucloud: 'Requests signed with it are refused from the next one on.',
};

export type CreatedApiKey = { keyId: string; key: string };

export function registerApiKeyRoutes(
  app: FastifyInstance,
  ctx: ConsoleContext,
  show: (request: PageRequest, accountId: number, made: CreatedApiKey) => Promise<Html>,
): void {
  app.post(
    '/console/keys/api',
    guardedRoute(async (request, reply) => {
      adminOnly(request);
      const accountId = accountOf(request, request.body);
      const terms = termsOfForm(request.body);
      const made = await createApiKey(ctx.store, { accountId, ...terms }, ctx.clock.now());
      const fact = { action: 'key.created', target: made.record.keyId, accountId };
      const detail = { Name: made.record.name, Scopes: made.record.scopes };
      await consoleAudit(ctx, request, { ...fact, detail });
      // A page, not a redirect: the key must not travel in a URL.
      const created = { keyId: made.record.keyId, key: made.key };
      return sendPage(
        reply.header('cache-control', 'no-store'),
        await show(request, accountId, created),
      );
    }),
  );
  app.post(
    '/console/keys/api/revoke',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const at = { accountId, keyId: KeyForm(request.body).keyId };
      await revokeApiKey(ctx.store, at, ctx.clock.now(), 'revoked in the console');
      await consoleAudit(ctx, request, { action: 'key.revoked', target: at.keyId, accountId });
      return reply.redirect(`/console/keys?account=${accountId}`, 303);
    }),
  );
  app.post(
    '/console/keys/sessions/end',
    guardedRoute(async (request, reply) => {
      adminOnly(request);
      const label = SessionForm(request.body).session;
      const which = label === 'all' ? ('all' as const) : { label };
      const ended = await ctx.store.endConsoleSessions(
        which,
        ctx.clock.now(),
        'ended in the console',
      );
      const fact = { action: 'console.sessions_ended', target: label, accountId: undefined };
      await consoleAudit(ctx, request, { ...fact, detail: { Ended: ended } });
      return reply.redirect('/console/keys', 303);
    }),
  );
}

export function apiKeysSection(
  csrf: string,
  view: {
    accountId: number;
    keys: readonly KeyRecord[];
    now: number;
    admin: boolean;
    created?: CreatedApiKey;
  },
): Html {
  const { accountId, keys, now, created } = view;
  return html`<h1>Keys and credentials</h1>
    <p>
      API keys, SMPP credentials and UCloud key pairs: each is revoked here, at once, on every node.
    </p>
    ${created ? createdKeyNotice(created) : ''}
    <table class="api-keys">
      <thead>
        <tr>
          <th>KeyId</th>
          <th>Kind</th>
          <th>Prefix</th>
          <th>Name</th>
          <th>Scopes</th>
          <th>State</th>
          <th>Last used (UTC)</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        ${keys.map((k) => apiKeyRow(k, { accountId, csrf, now }))}
      </tbody>
    </table>
    ${view.admin ? newKeyForm(csrf, accountId) : ''}`;
}

function createdKeyNotice(created: CreatedApiKey): Html {
  return html`<div class="notice" role="status" id="created-api-key">
    <p>Copy the key now: Wirebird keeps only its hash and never shows it again.</p>
    <p>${created.keyId} <code class="api-key">${created.key}</code></p>
  </div>`;
}

function apiKeyRow(k: KeyRecord, o: { accountId: number; csrf: string; now: number }): Html {
  const state = keyState(k, o.now);
  return html`<tr data-key-id="${k.keyId}">
    <td><code>${k.keyId}</code></td>
    <td>${KIND_NAMES[k.kind]}</td>
    <td><code>${k.prefix}${k.kind === 'api' ? '…' : ''}</code></td>
    <td>${k.name}</td>
    <td>${k.scopes.join(', ') || 'all'}</td>
    <td class="state">${state}</td>
    <td>${k.lastUsedAt === undefined ? '' : utc(k.lastUsedAt)}</td>
    <td>
      ${
        state === 'revoked'
          ? ''
          : dangerButton(o.csrf, {
              action: '/console/keys/api/revoke',
              accountId: o.accountId,
              fields: { keyId: k.keyId },
              label: 'Revoke',
              confirm: `Revoke ${k.keyId}? ${REVOKED_MEANS[k.kind]}`,
            })
      }
    </td>
  </tr>`;
}

function newKeyForm(csrf: string, accountId: number): Html {
  return html`<form method="post" action="/console/keys/api" class="new-api-key">
    ${csrfField(csrf)}<input type="hidden" name="account" value="${accountId}" />
    ${termsFields()}
    <button type="submit">Create an API key for account ${accountId}</button>
  </form>`;
}

/** The fields every credential's form has for its key record: a name and its scopes. */
export function termsFields(): Html {
  return html`<label>Name <input name="name" maxlength="64" /></label>
    ${KEY_SCOPES.map((s) => html`<label><input type="checkbox" name="scope_${s}" /> ${s}</label>`)}`;
}

const TermsForm = formReader({
  name: text(64),
  ...Object.fromEntries(KEY_SCOPES.map((s) => [`scope_${s}`, text(2)])),
});

/** A credential's record terms from its form (no scope ticked: every Action). */
export function termsOfForm(body: unknown): KeyTerms {
  const form: Record<string, string> = TermsForm(body);
  const scopes = KEY_SCOPES.filter((s) => form[`scope_${s}`] === 'on');
  return { name: checkKeyName(form.name ?? ''), scopes, source: 'console' };
}

export function consoleSessionsSection(
  csrf: string,
  sessions: readonly ConsoleSessionRecord[],
): Html {
  const end = (session: string, label: string) =>
    html`<form method="post" action="/console/keys/sessions/end">
      ${csrfField(csrf)}<input type="hidden" name="session" value="${session}" />
      <button type="submit" class="danger">${label}</button>
    </form>`;
  return html`<h1>Console sessions</h1>
    <table class="console-sessions">
      <thead>
        <tr>
          <th>Session</th>
          <th>Who</th>
          <th>From</th>
          <th>Since (UTC)</th>
          <th>Until (UTC)</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        ${sessions.map(
          (s) =>
            html`<tr>
              <td><code>${sessionLabel(s)}</code></td>
              <td>
                ${s.role === 'admin' ? 'admin' : `account ${s.accountId ?? ''} (${s.keyId ?? ''})`}
              </td>
              <td>${s.address}</td>
              <td>${utc(s.createdAt)}</td>
              <td>${utc(s.expiresAt)}</td>
              <td>${end(sessionLabel(s), 'End')}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${end('all', 'Log out everyone')}`;
}
