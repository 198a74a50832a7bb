import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { accountScope, type ConsoleContext } from './console-deps.js';
import { renderEntry } from './inbox-entry.js';
import type { InboxChange } from './inbox-feed.js';
import { conversationItem } from './inbox-page.js';

const HEARTBEAT_MS = 15_000;

/**
 * GET /console/inbox/events: server-sent events, one `entry` per delivery or applied report that
 * this viewer may see (its account, its search), carrying the entry already rendered, so the
 * page's script inserts markup escaped by the server and never builds any from message text.
 */
export function registerInboxEvents(app: FastifyInstance, ctx: ConsoleContext): void {
  const open = new Set<ServerResponse>();
  // Streams never end on their own: end them first, or closing the server would wait forever.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get<{ Querystring: { q?: string } }>('/console/inbox/events', async (request, reply) => {
    const accountId = accountScope(request);
    const raw: unknown = request.query.q;
    const query = typeof raw === 'string' ? raw.slice(0, 200).trim() : '';
    const res = reply.raw;
    reply.hijack();
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
    });
    res.write(': connected\n\n');
    open.add(res);
    let chain = Promise.resolve();
    const forward = (change: InboxChange) => {
      // One at a time, so events keep the order the changes happened in.
      chain = chain
        .then(async () => {
          const entries = await ctx.store.searchInbox({
            accountId,
            query,
            ids: change.ids,
            limit: change.ids.length,
          });
          for (const e of entries.reverse()) {
            const conversation = conversationItem(
              { phone: e.to, count: 1, lastId: e.id, lastDeliveredAt: e.deliveredAt },
              query,
              false,
            );
            const data = {
              kind: change.kind,
              id: e.id,
              phone: e.to,
              html: renderEntry(e).text,
              conversation: conversation.text,
            };
            res.write(`event: entry\ndata: ${JSON.stringify(data)}\n\n`);
          }
        })
        .catch((err: unknown) => request.log.error({ err }, 'inbox event stream failed'));
    };
    const unsubscribe = ctx.feed.subscribe(forward);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
    });
  });
}
