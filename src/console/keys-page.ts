import type { FastifyInstance } from 'fastify';
import { createKeyPair, deleteKeyPair } from '../core/ucloud-key-pairs.js';
import type { UcloudKey } from '../domain/accounts/ucloud-key.js';
import { accountOf, consoleAudit, pageContext, type ConsoleContext } from './console-deps.js';
import { guardedRoute, sendPage, type PageRequest } from './console-routes.js';
import { html, type Html } from './html.js';
import {
  apiKeysSection,
  consoleSessionsSection,
  registerApiKeyRoutes,
  termsFields,
  termsOfForm,
  type CreatedApiKey,
} from './api-keys-section.js';
import { accountPicker, csrfField, dangerButton, page, utc, type PageContext } from './layout.js';
import {
  registerSmppCredentialRoutes,
  smppSection,
  type CreatedSmpp,
} from './smpp-credentials-section.js';
import { formReader, text } from './forms.js';

const KeyPairForm = formReader({ publicKey: text(128) });

type JustCreated = { pair?: Created; smpp?: CreatedSmpp; api?: CreatedApiKey };

/** The Keys page of an account, with what was just created shown once. */
async function keysView(
  ctx: ConsoleContext,
  request: PageRequest,
  accountId: number,
  created?: JustCreated,
): Promise<Html> {
  const keys = await ctx.store.listUcloudKeys(accountId);
  const smpp = await ctx.store.listSmppCredentials(accountId);
  const view = pageContext(ctx, request);
  const now = ctx.clock.now();
  const admin = view.viewer.role === 'admin';
  const apiKeys = await ctx.store.listApiKeys(accountId);
  // API keys first, the credentials most accounts use; UCloud key pairs after SMPP's.
  const first = html`${apiKeysSection(view.csrf, { accountId, keys: apiKeys, now, admin, created: created?.api })}
  ${smppSection(view.csrf, { accountId, list: smpp, created: created?.smpp })}`;
  const last = admin
    ? consoleSessionsSection(view.csrf, await ctx.store.liveConsoleSessions(now))
    : html``;
  return keysPage(view, { accountId, keys, created: created?.pair, first, last });
}

/** UCloud SDK key pairs (docs/ucloud-sdk.md): listed, created (private key shown once), deleted. */
export function registerKeysPage(app: FastifyInstance, ctx: ConsoleContext): void {
  const show = (request: PageRequest, accountId: number, created?: JustCreated) =>
    keysView(ctx, request, accountId, created);
  registerSmppCredentialRoutes(app, ctx, (request, accountId, smpp) =>
    show(request, accountId, { smpp }),
  );
  registerApiKeyRoutes(app, ctx, (request, accountId, api) => show(request, accountId, { api }));
  app.get(
    '/console/keys',
    guardedRoute(async (request, reply) =>
      sendPage(reply, await show(request, accountOf(request, request.query))),
    ),
  );
  app.post(
    '/console/keys',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const terms = termsOfForm(request.body);
      const pair = await createKeyPair(ctx.store, ctx.box, { accountId, terms }, ctx.clock.now());
      const detail = { KeyId: pair.record.keyId, Scopes: pair.record.scopes };
      const fact = { action: 'ucloud_key.created', target: pair.publicKey, accountId, detail };
      await consoleAudit(ctx, request, fact);
      // Answered as a page, not a redirect: the private key must not travel in a URL.
      return sendPage(
        reply.header('cache-control', 'no-store'),
        await show(request, accountId, { pair }),
      );
    }),
  );
  app.post(
    '/console/keys/delete',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const { publicKey } = KeyPairForm(request.body);
      await deleteKeyPair(ctx.store, accountId, publicKey);
      await consoleAudit(ctx, request, {
        action: 'ucloud_key.deleted',
        target: publicKey,
        accountId,
      });
      return reply.redirect(`/console/keys?account=${accountId}`, 303);
    }),
  );
}

type Created = { publicKey: string; privateKey: string };

function keysPage(
  ctx: PageContext,
  view: {
    accountId: number;
    keys: readonly UcloudKey[];
    created?: Created;
    first: Html;
    last: Html;
  },
): Html {
  const { accountId, keys, created, first, last } = view;
  return page(
    ctx,
    'keys',
    'Keys',
    html`${accountPicker(ctx, 'keys', accountId)} ${first}
      <h2>UCloud SDK key pairs</h2>
      <p>
        The official UCloud SDKs sign their requests with a key pair; set the SDK's
        <code>base_url</code> to this gateway's <code>/api</code> (docs/ucloud-sdk.md).
      </p>
      ${created ? createdNotice(created) : ''}
      <table class="keys">
        <thead>
          <tr>
            <th>PublicKey</th>
            <th>Created (UTC)</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          ${keys.map((k) => keyRow(k, accountId, ctx.csrf))}
        </tbody>
      </table>
      ${keys.length === 0 ? html`<p class="empty">Account ${accountId} has no key pairs.</p>` : ''}
      <form method="post" action="/console/keys">
        ${csrfField(ctx.csrf)}<input type="hidden" name="account" value="${accountId}" />
        ${termsFields()}
        <button type="submit">Create a key pair for account ${accountId}</button>
      </form>
      ${last}`,
  );
}

function createdNotice(created: Created): Html {
  return html`<div class="notice" role="status" id="created-key">
    <p>Copy the private key now: Wirebird keeps it sealed and never shows it again.</p>
    <p>PublicKey <code class="public-key">${created.publicKey}</code></p>
    <p>PrivateKey <code class="private-key">${created.privateKey}</code></p>
  </div>`;
}

function keyRow(k: UcloudKey, accountId: number, csrf: string): Html {
  return html`<tr>
    <td><code>${k.publicKey}</code></td>
    <td>${utc(k.createdAt)}</td>
    <td>
      ${dangerButton(csrf, {
        action: '/console/keys/delete',
        accountId,
        fields: { publicKey: k.publicKey },
        label: 'Delete',
        confirm: `Delete ${k.publicKey}? Requests signed with it are refused from then on.`,
      })}
    </td>
  </tr>`;
}
