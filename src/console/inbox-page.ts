import type { Conversation, InboxView } from '../domain/views/views.js';
import { html, type Html } from './html.js';
import { csrfField, page, utc, type PageContext } from './layout.js';
import { renderEntry } from './inbox-entry.js';

/** Conversations per page: a page a phone or a laptop shows without endless scrolling. */
export const CONVERSATIONS_PER_PAGE = 50;

export interface InboxPageData {
  query: string;
  phone: string | undefined;
  conversations: Conversation[];
  /** The open conversation, oldest first. */
  entries: InboxView[];
  cleared?: number;
  /** The cursor this page started from: absent on the first (newest) page. */
  before?: number;
  /** The cursor of the next, older page, when there is one. */
  older?: number;
}

/** Newer and Older links under the conversations; the query and nothing else carries over. */
function pager(d: InboxPageData): Html {
  if (d.before === undefined && d.older === undefined) return html``;
  const link = (params: Record<string, string>) => {
    const search = new URLSearchParams({ ...(d.query ? { q: d.query } : {}), ...params });
    return search.size > 0 ? `/console/inbox?${search}` : '/console/inbox';
  };
  return html`<nav class="pager" aria-label="Conversations">
    ${d.before !== undefined ? html`<a href="${link({})}" rel="first">← Newest</a>` : ''}
    ${
      d.older !== undefined
        ? html`<a href="${link({ before: String(d.older) })}" rel="next">Older →</a>`
        : ''
    }
  </nav>`;
}

export function conversationItem(c: Conversation, query: string, open: boolean): Html {
  const href = `/console/inbox?${new URLSearchParams({ phone: c.phone, ...(query ? { q: query } : {}) })}`;
  return html`<li data-phone="${c.phone}" ${open ? html` class="open"` : ''}>
    <a href="${href}"
      ><b>${c.phone}</b><span class="count">${c.count}</span>
      <small>${utc(c.lastDeliveredAt)}</small></a
    >
  </li>`;
}

export function inboxPage(ctx: PageContext, d: InboxPageData): Html {
  const items = d.conversations.map((c) => conversationItem(c, d.query, c.phone === d.phone));
  return page(
    ctx,
    'inbox',
    'Inbox',
    html`<div class="inbox">
      <aside>
        <form method="get" action="/console/inbox" class="search">
          <input type="search" name="q" value="${d.query}" placeholder="Search number or text" />
          <button type="submit">Search</button>
        </form>
        <form
          method="post"
          action="/console/inbox/clear"
          data-confirm="Clear the inbox? Entries still awaiting their report stay."
        >
          ${csrfField(ctx.csrf)}<button type="submit" class="danger">Clear inbox</button>
        </form>
        ${d.cleared !== undefined ? html`<p class="notice">${d.cleared} entries cleared.</p>` : ''}
        <ul
          id="conversations"
          data-first-page="${d.before === undefined ? 'yes' : 'no'}"
          data-page-size="${String(CONVERSATIONS_PER_PAGE)}"
        >
          ${items}
        </ul>
        ${pager(d)}
        ${items.length === 0 ? html`<p class="empty" id="no-conversations">No messages yet. They appear here as they are delivered.</p>` : ''}
      </aside>
      <section id="conversation" data-phone="${d.phone ?? ''}" data-query="${d.query}">
        <h2>${d.phone ?? 'No conversation open'}</h2>
        <ol id="entries">
          ${d.entries.map(renderEntry)}
        </ol>
      </section>
    </div>`,
  );
}
