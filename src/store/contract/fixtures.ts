/**
 * Builders and helpers shared by the Store contract suite. Everything here speaks only the Store
 * interface, so the same suite runs against every adapter. Time is fixed, never Date.now().
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import type { Store } from '../../domain/ports.js';
import type {
  AcceptedBatch,
  AcceptedBusinessMessage,
  AcceptedSms,
  ClaimedMessage,
  IdempotencyRecord,
  InboxEntry,
  Report,
  ReportStatus,
} from '../../domain/messages/message.js';
import type { MediaFile } from '../../domain/media/media-file.js';
import type { ReceiptPerPhone } from '../../domain/receipts/receipt.js';
import { TemplateStatus, type Template } from '../../domain/templates/template.js';

export type OpenStore = () => Promise<Store>;

export const NOW = 1_800_000_000_000;
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const LEASE = 30 * SECOND;
export const ROUTE = 'sim';
export const ACCOUNT = 101;
export const OTHER_ACCOUNT = 202;

/** Unix seconds of a millisecond time, as receipts carry it. */
export const seconds = (ms: number): number => Math.floor(ms / 1000);

/** An `it` whose body gets a freshly opened store, closed afterwards whatever happens. */
export type StoreTest = (
  name: string,
  body: (store: Store) => Promise<void>,
  options?: { todo?: string },
) => void;

export function storeTest(open: OpenStore): StoreTest {
  return (name, body, options = {}) => {
    void it(name, options, async () => {
      const store = await open();
      try {
        await body(store);
      } finally {
        await store.close();
      }
    });
  };
}

let counter = 0;
/** A unique suffix, so that ids never collide between builders in one test. */
export const unique = (prefix: string): string => `${prefix}-${++counter}`;

export function sms(overrides: Partial<AcceptedSms> = {}): AcceptedSms {
  return {
    phone: '(0)7700 900123',
    e164: '+447700900123',
    route: ROUTE,
    templateId: 'UTA0001',
    params: ['1234'],
    senderId: 'WIREBIRD',
    extendCode: '77',
    userId: 'user-1',
    text: 'Your code is 1234',
    costCount: 1,
    country: 'GB',
    ...overrides,
  };
}

export function batch(
  messages: readonly AcceptedSms[] = [sms()],
  overrides: Partial<AcceptedBatch> = {},
): AcceptedBatch {
  return {
    accountId: ACCOUNT,
    sessionNo: unique('session'),
    acceptedAt: NOW,
    messages,
    ...overrides,
  };
}

export function business(
  overrides: Partial<AcceptedBusinessMessage> = {},
): AcceptedBusinessMessage {
  return {
    messageId: unique('wbm'),
    requestId: unique('req'),
    accountId: ACCOUNT,
    businessPhone: '+15550001111',
    to: '+1 650 555 1234',
    e164: '+16505551234',
    route: ROUTE,
    type: 'text',
    content: '{"body":"hello"}',
    acceptedAt: NOW,
    ...overrides,
  };
}

export function idempotency(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return {
    accountId: ACCOUNT,
    key: 'key-1',
    requestHash: 'hash-1',
    response: '{"SessionNo":"first"}',
    createdAt: NOW,
    ...overrides,
  };
}

export function report(
  upstreamId: string,
  status: ReportStatus,
  at: number,
  overrides: Partial<Report> = {},
): Report {
  return {
    route: ROUTE,
    upstream: '',
    upstreamId,
    status,
    code: status.toUpperCase(),
    desc: `${status} by the network`,
    at,
    ...overrides,
  };
}

export function template(overrides: Partial<Template> = {}): Template {
  return {
    templateId: unique('UTA'),
    accountId: ACCOUNT,
    purpose: 2,
    templateName: 'Order update',
    template: 'Your order {1} has shipped',
    status: TemplateStatus.UnderReview,
    remark: 'remark',
    errDesc: '',
    instruction: 'instruction',
    international: false,
    unsubscribeInfo: '',
    createdAt: NOW,
    updatedAt: NOW,
    version: 0,
    ...overrides,
  };
}

export function inboxEntry(overrides: Partial<InboxEntry> = {}): InboxEntry {
  return {
    messageRef: 1,
    route: ROUTE,
    upstreamId: 'sim-1',
    kind: 'sms',
    from: 'WIREBIRD',
    to: '+447700900123',
    body: 'Your code is 1234',
    type: 'sms',
    segments: 1,
    encoding: 'gsm7',
    deliveredAt: NOW,
    reportStatus: 'delivered',
    reportDueAt: NOW + 2 * SECOND,
    reported: false,
    submissions: 1,
    lastAttempt: 1,
    ...overrides,
  };
}

/** The single element of a list, failing the test when there is not exactly one. */
export function only<T>(list: readonly T[], what = 'item'): T {
  assert.equal(list.length, 1, `expected exactly one ${what}, got ${list.length}`);
  return list[0] as T;
}

/** Element i of a list, failing the test when it is missing. */
export function nth<T>(list: readonly T[], i: number): T {
  const item = list[i];
  assert.ok(item !== undefined, `expected an element at index ${i} of ${list.length}`);
  return item;
}

export const byId = (a: { id: number }, b: { id: number }): number => a.id - b.id;

/** Claims everything due at `now` (ordered by id) with the standard lease. */
export async function claimAll(store: Store, now = NOW): Promise<ClaimedMessage[]> {
  return (await store.claimDue(now, 1000, LEASE)).sort(byId);
}

/** Claims every due message and records it as submitted; answers the upstream ids, by id order. */
export async function submitAll(store: Store, now = NOW): Promise<string[]> {
  const claimed = await claimAll(store, now);
  const ids = claimed.map((m) => `up-${m.id}`);
  await store.recordOutcomes(
    claimed.map((m, i) => ({
      id: m.id,
      attempt: m.attempts,
      kind: 'submitted',
      route: m.route,
      upstream: '',
      upstreamId: nth(ids, i),
    })),
    now,
  );
  return ids;
}

/** The receipts of the account's sessions among those asked, by session, in the order asked. */
export async function receiptsForSessions(
  store: Store,
  accountId: number,
  sessionNos: readonly string[],
): Promise<Map<string, ReceiptPerPhone[]>> {
  const map = new Map<string, ReceiptPerPhone[]>();
  for (const s of await store.accountSessions(accountId, sessionNos)) {
    map.set(s, await store.sessionReceipts(accountId, s));
  }
  return map;
}

/** The receipts of one session, failing the test when the session is unknown to the store. */
export async function receiptsOf(
  store: Store,
  sessionNo: string,
  accountId = ACCOUNT,
): Promise<ReceiptPerPhone[]> {
  const map = await receiptsForSessions(store, accountId, [sessionNo]);
  const list = map.get(sessionNo);
  assert.ok(list, `session ${sessionNo} should be known to account ${accountId}`);
  return list;
}

/** The one receipt of a one-message session. */
export async function receiptOf(store: Store, sessionNo: string): Promise<ReceiptPerPhone> {
  return only(await receiptsOf(store, sessionNo), 'receipt');
}

/** Accepts one single-message batch and claims it; answers the session and the claim. */
export async function acceptOne(
  store: Store,
  overrides: Partial<AcceptedSms> = {},
  acceptedAt = NOW,
): Promise<{ sessionNo: string; claimed: ClaimedMessage }> {
  const b = batch([sms(overrides)], { acceptedAt });
  await store.acceptBatch(b);
  const claimed = only(await store.claimDue(acceptedAt, 1000, LEASE), 'claimed message');
  return { sessionNo: b.sessionNo, claimed };
}

/** Accepts, claims and submits one SMS; answers its session and upstream id. */
export async function submittedOne(
  store: Store,
  submittedAt = NOW,
): Promise<{ sessionNo: string; upstreamId: string; id: number }> {
  const { sessionNo, claimed } = await acceptOne(store, {}, submittedAt);
  const upstreamId = `up-${claimed.id}`;
  await store.recordOutcomes(
    [
      {
        id: claimed.id,
        attempt: claimed.attempts,
        kind: 'submitted',
        route: claimed.route,
        upstream: '',
        upstreamId,
      },
    ],
    submittedAt,
  );
  return { sessionNo, upstreamId, id: claimed.id };
}

/** The statuses in a business message's history that upstream reports gave. */
const REPORTED = new Set<string>(['sent', 'delivered', 'read', 'failed', 'unknown']);
export async function reportedHistory(store: Store, messageId: string): Promise<string[]> {
  const view = await store.getBusinessMessage(messageId, 'any');
  assert.ok(view, `business message ${messageId} should exist`);
  return view.history.map((e) => e.status).filter((s) => REPORTED.has(s));
}

/** countByState with absent states read as zero. */
export async function states(store: Store): Promise<Record<string, number>> {
  const counts = await store.countByState();
  const out: Record<string, number> = {};
  for (const s of ['queued', 'submitting', 'submitted', 'final']) out[s] = counts[s] ?? 0;
  return out;
}

/** An uploaded file (a few PNG-like bytes unless `bytes` is given), its size and hash to match. */
export function mediaFile(overrides: Partial<MediaFile> = {}): MediaFile {
  const bytes = overrides.bytes ?? Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x0d, 0x0a]);
  return {
    mediaId: unique('wbm_contract'),
    accountId: ACCOUNT,
    mimeType: 'image/png',
    fileName: 'photo.png',
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    createdAt: NOW,
    bytes,
    ...overrides,
  };
}
