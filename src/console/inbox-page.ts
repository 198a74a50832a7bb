import type { InboundMessage } from '../domain/inbound/inbound.js';
import { formatBytes } from '../domain/media/media-kinds.js';
import type { Conversation, InboxView } from '../domain/views/views.js';
import { windowClosesAt } from '../domain/business-messages/conversation.js';
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
  /** The test phone's replies in the open conversation, oldest first. */
  replies?: InboundMessage[];
  /** The InboundId of a reply just typed in the reply box. */
  replied?: string;
  cleared?: number;
  /** The cursor this page started from: absent on the first (newest) page. */
  before?: number;
  /** The cursor of the next, older page, when there is one. */
  older?: number;
  /** The 24-hour window of each business phone in the open conversation. */
  windows?: ConversationWindow[];
}

export interface ConversationWindow {
  businessPhone: string;
  /** When the test phone last wrote to it; absent: never. */
  lastInboundAt?: number;
  now: number;
}

/** Whether a business phone may send the test phone free-form messages, and until when. */
function windowLine(w: ConversationWindow): Html {
  const last = w.lastInboundAt;
  const state =
    last === undefined
      ? html`not open: this phone has not written to it`
      : w.now < windowClosesAt(last)
        ? html`<b>open</b> until ${utc(windowClosesAt(last))} UTC`
        : html`closed since ${utc(windowClosesAt(last))} UTC`;
  return html`<li data-business-phone="${w.businessPhone}">
    24-hour window with ${w.businessPhone}: ${state}
  </li>`;
}

/** Deliveries and the phone's replies, in the order they happened. */
function conversation(entries: readonly InboxView[], replies: readonly InboundMessage[]): Html[] {
  const items = [
    ...entries.map((e) => ({ at: e.deliveredAt, item: renderEntry(e) })),
    ...replies.map((r) => ({ at: r.receivedAt, item: renderReply(r) })),
  ];
  return items.sort((a, b) => a.at - b.at).map((x) => x.item);
}

function renderReply(r: InboundMessage): Html {
  const owner =
    r.accountId === undefined ? 'unrouted: no account has this number' : `account ${r.accountId}`;
  return html`<li class="entry reply" id="reply-${r.inboundId}">
    <div class="meta">
      reply from <b>${r.from}</b> to <b>${r.to}</b> · ${r.channel === 'sms' ? 'SMS' : 'WhatsApp'} ·
      ${utc(r.receivedAt)} UTC
    </div>
    <div class="body">
      <p class="sms">${replyText(r)}</p>
      ${mediaLine(r)}
    </div>
    <div class="receipt">${r.inboundId} · ${owner}</div>
  </li>`;
}

/** A text as it was written; a file's caption; any other type as the JSON received. */
function replyText(r: InboundMessage): string {
  if (!r.media) return r.body;
  try {
    // A media reply's body is the JSON the channel stored; caption is checked below.
    const caption = (JSON.parse(r.body) as Record<string, { caption?: unknown }>)[r.type]?.caption;
    return typeof caption === 'string' ? caption : '';
  } catch {
    return r.body;
  }
}

/** The file a WhatsApp message carried: a link once stored, else where its fetch stands. */
function mediaLine(r: InboundMessage): Html | string {
  const m = r.media;
  if (!m) return '';
  if (m.state !== 'stored' || !m.mediaId || r.accountId === undefined) {
    const why = m.error ? ` (${m.error})` : '';
    return html`<p class="media">${r.type}: file ${m.state}${why}</p>`;
  }
  const href = `/console/media/${r.accountId}/${m.mediaId}`;
  return html`<p class="media">
    ${r.type}: <a href="${href}">${m.fileName ?? m.mediaId}</a> · ${m.mimeType ?? ''} ·
    ${formatBytes(m.size ?? 0)}
  </p>`;
}

/**
 * The simulator's reply box: the test phone answers the number the last message came from (a
 * business phone, or an SMS number; an alphanumeric sender id cannot be answered).
 */
function replyBox(ctx: PageContext, phone: string, last: InboxView | undefined): Html {
  const whatsapp = last?.kind === 'business';
  const to = last && /^\+?\d{3,15}$/.test(last.from) ? last.from : '';
  return html`<form method="post" action="/console/inbox/reply" class="reply">
    ${csrfField(ctx.csrf)}<input type="hidden" name="phone" value="${phone}" />
    <label>To <input name="to" value="${to}" placeholder="10690001" required size="14" /></label>
    <select name="channel" aria-label="Channel">
      <option value="sms" ${whatsapp ? '' : html`selected`}>SMS</option>
      <option value="whatsapp" ${whatsapp ? html`selected` : ''}>WhatsApp</option>
    </select>
    <input name="text" required placeholder="The test phone's reply" maxlength="4096" />
    <button type="submit">Send reply</button>
  </form>`;
}

/** Newer and Older links under the conversations; the query and nothing else carries over. */
function pager(d: InboxPageData): Html {
  if (d.before === undefined && d.older === undefined) return html``;
  const link = (params: Record<string, string>) => {
    const search = new URLSearchParams({ ...(d.query ? { q: d.query } : {}), ...params });
    return search.size > 0 ? `/console/inbox?${search.toString()}` : '/console/inbox';
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
  const href = `/console/inbox?${new URLSearchParams({ phone: c.phone, ...(query ? { q: query } : {}) }).toString()}`;
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
        ${
          d.windows && d.windows.length > 0
            ? html`<ul class="windows">
                ${d.windows.map(windowLine)}
              </ul>`
            : ''
        }
        <ol id="entries">
          ${conversation(d.entries, d.replies ?? [])}
        </ol>
        ${d.replied ? html`<p class="notice" id="replied">Reply stored as ${d.replied}.</p>` : ''}
        ${d.phone ? replyBox(ctx, d.phone, d.entries.at(-1)) : ''}
      </section>
    </div>`,
  );
}
