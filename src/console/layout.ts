import type { Viewer } from './console-session.js';
import { DOCS_PATH } from '../http/paths.js';
import { html, type Html } from './html.js';

export type PageName =
  | 'inbox'
  | 'templates'
  | 'sessions'
  | 'held'
  | 'webhooks'
  | 'opt-outs'
  | 'policy'
  | 'keys'
  | 'health'
  | 'audit';

const NAV: readonly [PageName, string, boolean][] = [
  ['inbox', 'Inbox', false],
  ['templates', 'Templates', false],
  ['sessions', 'Sessions', false],
  ['held', 'Scheduled', false],
  ['webhooks', 'Webhooks', false],
  ['opt-outs', 'Opt-outs', false],
  ['policy', 'Policy', false],
  ['keys', 'Keys', false],
  ['health', 'Health', true],
  ['audit', 'Audit', true],
];

export interface PageContext {
  viewer: Viewer;
  csrf: string;
}

/** The shell of every page after login: navigation, who is logged in, and the CSRF token. */
export function page(ctx: PageContext, active: PageName, title: string, body: Html): Html {
  const who = ctx.viewer.role === 'admin' ? 'admin' : `account ${ctx.viewer.accountId}`;
  const links = NAV.filter(([, , adminOnly]) => !adminOnly || ctx.viewer.role === 'admin').map(
    ([name, label]) =>
      html`<a href="/console/${name}" ${active === name ? html` aria-current="page"` : ''}
        >${label}</a
      >`,
  );
  return document(
    title,
    html`<body data-csrf="${ctx.csrf}" data-page="${active}">
      <header>
        <strong class="brand">Wirebird</strong>
        <nav>${links} <a href="${DOCS_PATH}" class="api-docs">API reference</a></nav>
        <span class="who">${who}</span>
        <form method="post" action="/console/logout">
          ${csrfField(ctx.csrf)}<button type="submit">Log out</button>
        </form>
      </header>
      <main>${body}</main>
    </body>`,
  );
}

export function document(title: string, body: Html): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Wirebird</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/console/assets/app.css" />
        <script src="/console/assets/app.js" defer></script>
      </head>
      ${body}
    </html>`;
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}" />`;
}

/**
 * A form of one red button that posts the account and `fields` to `action`, asking `confirm`
 * first (the console's script shows it): what deletes or revokes something.
 */
export function dangerButton(
  csrf: string,
  o: {
    action: string;
    accountId: number;
    fields: Record<string, string>;
    label: string;
    confirm: string;
  },
): Html {
  return html`<form method="post" action="${o.action}" data-confirm="${o.confirm}">
    ${csrfField(csrf)}<input type="hidden" name="account" value="${o.accountId}" />
    ${Object.entries(o.fields).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
    )}
    <button type="submit" class="danger">${o.label}</button>
  </form>`;
}

export function loginPage(problem?: string): Html {
  return document(
    'Log in',
    html`<body class="login">
      <main>
        <h1>Wirebird console</h1>
        <form method="post" action="/console/login">
          <label
            >Admin key or an account's API key
            <input type="password" name="key" autocomplete="current-password" required autofocus />
          </label>
          ${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}
          <button type="submit">Log in</button>
        </form>
        <p class="hint">
          The admin key is in <code>data/admin.key</code> (or <code>WIREBIRD_ADMIN_KEY</code>); the
          development account's API key is the part after the colon in
          <code>data/dev-account.key</code>.
        </p>
      </main>
    </body>`,
  );
}

/** A UTC time to the second, as operators compare it with logs. */
export function utc(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/** The admin's account chooser of a per-account page; an account sees only its own. */
export function accountPicker(ctx: PageContext, path: string, accountId: number): Html {
  if (ctx.viewer.role !== 'admin') return html``;
  return html`<form method="get" action="/console/${path}" class="account">
    <label>Account <input name="account" value="${accountId}" size="6" /></label>
    <button type="submit">Show</button>
  </form>`;
}
