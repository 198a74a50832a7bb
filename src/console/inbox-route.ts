import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { WirebirdError } from '../domain/errors.js';
import { testPhoneReply } from '../domain/inbound/test-phone.js';
import { normalizePhone } from '../domain/phones/phones.js';
import { accountScope, pageContext, type ConsoleContext } from './console-deps.js';
import { guardedRoute as guarded, sendPage as send, type PageRequest } from './console-routes.js';
import { formReader, text } from './forms.js';
import { CONVERSATIONS_PER_PAGE, inboxPage, type ConversationWindow } from './inbox-page.js';
import type { InboxView } from '../domain/views/views.js';
import { sendMediaFile } from '../http/media-file.js';
import { regionOfAccount } from '../core/sms-rules.js';

const ENTRIES_SHOWN = 200;

const InboxQuery = formReader({
  q: text(200),
  before: text(16),
  phone: text(64),
  cleared: text(12),
  replied: text(40),
});
const MediaParams = formReader({ accountId: text(12), mediaId: text(64) });
const ReplyForm = formReader({ text: text(4096), channel: text(8), phone: text(32), to: text(32) });

/** The simulator's Inbox: conversations a page at a time, the open one's entries, and Clear. */
export function registerInboxRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { store } = ctx;
  app.get(
    '/console/inbox',
    guarded(async (request, reply) => {
      const asked = InboxQuery(request.query);
      const query = asked.q;
      const accountId = accountScope(request);
      const before = cursorOf(asked.before);
      const found = await store.inboxConversations({
        accountId,
        query,
        before,
        limit: CONVERSATIONS_PER_PAGE + 1,
      });
      const conversations = found.slice(0, CONVERSATIONS_PER_PAGE);
      const older = found.length > conversations.length ? conversations.at(-1)?.lastId : undefined;
      const phone = (await openPhone(ctx, asked.phone, accountId)) ?? conversations[0]?.phone;
      const entries = phone
        ? await store.searchInbox({ accountId, phone, query, limit: ENTRIES_SHOWN })
        : [];
      const replies = phone
        ? (await store.listInbound({ accountId, phone, limit: ENTRIES_SHOWN })).messages
        : [];
      const cleared = asked.cleared === '' ? undefined : Number(asked.cleared) || 0;
      const replied = asked.replied || undefined;
      const view = { query, phone, conversations, entries: entries.reverse(), cleared, replied };
      const windows = phone ? await windowsOf(ctx, phone, entries) : [];
      const page = { ...view, replies: replies.reverse(), before, older, windows };
      return send(reply, inboxPage(pageContext(ctx, request), page));
    }),
  );
  registerInboxMedia(app, ctx);
  app.post(
    '/console/inbox/reply',
    guarded(async (request, reply) => {
      const stored = await replyFromTestPhone(ctx, request);
      const back = new URLSearchParams({ phone: stored.from, replied: stored.inboundId });
      return reply.redirect(`/console/inbox?${back.toString()}`, 303);
    }),
  );
  app.post(
    '/console/inbox/clear',
    guarded(async (request, reply) => {
      const n = await store.clearInbox(accountScope(request));
      return reply.redirect(`/console/inbox?cleared=${n}`, 303);
    }),
  );
}

/** Files of inbound messages shown in the Inbox: the admin reads any account's, a viewer its own. */
function registerInboxMedia(app: FastifyInstance, ctx: ConsoleContext): void {
  const { store } = ctx;
  app.get(
    '/console/media/:accountId/:mediaId',
    guarded(async (request, reply) => {
      const params = MediaParams(request.params);
      const accountId = Number(params.accountId);
      const scope = accountScope(request);
      const mine = Number.isInteger(accountId) && (scope === undefined || scope === accountId);
      const { mediaId } = params;
      const file = mine ? await store.getMediaFile(accountId, mediaId) : undefined;
      if (!file) throw new WirebirdError('NotFound', `no file ${mediaId} in this account's media`);
      return sendMediaFile(reply, file);
    }),
  );
}

/** The conversation asked for, read in the viewer's region as the API reads the account's. */
async function openPhone(
  ctx: ConsoleContext,
  raw: string,
  accountId: number | undefined,
): Promise<string | undefined> {
  if (!raw) return undefined;
  const region =
    accountId === undefined
      ? ctx.defaultRegion
      : await regionOfAccount(ctx.store, accountId, ctx.defaultRegion);
  const parsed = normalizePhone(raw, region);
  return parsed.ok ? parsed.e164 : raw;
}

/**
 * A test phone answers (the simulator's reply box): stored as a network's reply would be. An
 * account may only answer to its own numbers, so it can never put a message in another's.
 */
async function replyFromTestPhone(ctx: ConsoleContext, request: PageRequest) {
  const form = ReplyForm(request.body);
  if (!form.text) throw new WirebirdError('MissingParameter', 'text is required: type the reply');
  const said = {
    channel: form.channel === 'whatsapp' ? ('whatsapp' as const) : ('sms' as const),
    from: form.phone,
    to: form.to,
    text: form.text,
  };
  const at = { region: ctx.defaultRegion, now: ctx.clock.now(), nonce: randomUUID() };
  const arrived = testPhoneReply(said, at, { from: 'phone', to: 'to' });
  const scope = accountScope(request);
  if (scope !== undefined && (await ctx.store.numberOwner(arrived.channel, arrived.to)) !== scope) {
    throw new WirebirdError('PermissionDenied', `${arrived.to} is not a number of this account`);
  }
  return (await ctx.inbound.receive(arrived)).message;
}

/** The 24-hour window of each business phone that wrote to the test phone (docs/whatsapp.md). */
async function windowsOf(
  ctx: ConsoleContext,
  phone: string,
  entries: readonly InboxView[],
): Promise<ConversationWindow[]> {
  const phones = [...new Set(entries.filter((e) => e.kind === 'business').map((e) => e.from))];
  const now = ctx.clock.now();
  return Promise.all(
    phones.map(async (businessPhone) => {
      const last = await ctx.store.lastInbound(businessPhone, phone);
      return { businessPhone, now, ...(last === undefined ? {} : { lastInboundAt: last }) };
    }),
  );
}

function cursorOf(raw: string): number | undefined {
  if (raw === '') return undefined;
  const n = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(n))
    throw new WirebirdError('InvalidParameter', 'before must be a whole number from an Older link');
  return n;
}
