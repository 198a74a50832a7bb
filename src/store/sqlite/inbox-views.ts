import type { ReceiptResult } from '../../domain/receipts/receipt.js';
import type { Conversation, InboxSearch, InboxView } from '../../domain/views/views.js';
import type { Db } from './database.js';
import { fromRow, type InboxRow } from '../rows/inbox.js';
import { INBOX_COLUMNS } from './inbox.js';

const VIEW_COLUMNS = INBOX_COLUMNS.split(',')
  .map((c) => `i.${c.trim()}`)
  .join(', ');

/** The console's reads of the simulator inbox, joined to the messages for account and receipt. */
export function sqliteInboxViews(db: Db) {
  return {
    async searchInbox(filter: InboxSearch): Promise<InboxView[]> {
      if (filter.ids?.length === 0) return [];
      const { where, values } = conditions(filter);
      const rows = db
        .prepare(
          `SELECT ${VIEW_COLUMNS}, m.account_id, m.accepted_at, m.receipt_result, m.receipt_time
           FROM sim_inbox i JOIN messages m ON m.id = i.message_ref ${where}
           ORDER BY i.id DESC LIMIT ?`,
        )
        .all(...values, filter.limit) as ViewRow[];
      return rows.map(toView);
    },
    async inboxConversations(filter: Omit<InboxSearch, 'phone' | 'ids'>): Promise<Conversation[]> {
      const { where, values } = conditions(filter);
      const rows = db
        .prepare(
          `SELECT i.to_addr AS phone, count(*) AS n, max(i.id) AS last_id, max(i.delivered_at) AS last_at
           FROM sim_inbox i JOIN messages m ON m.id = i.message_ref ${where}
           GROUP BY i.to_addr ORDER BY last_id DESC LIMIT ?`,
        )
        .all(...values, filter.limit) as ConversationRow[];
      return rows.map((r) => ({
        phone: r.phone,
        count: r.n,
        lastId: r.last_id,
        lastDeliveredAt: r.last_at,
      }));
    },
    async clearInbox(accountId?: number): Promise<number> {
      const scoped =
        accountId === undefined
          ? ''
          : ' AND message_ref IN (SELECT id FROM messages WHERE account_id = ?)';
      const args = accountId === undefined ? [] : [accountId];
      return db.prepare(`DELETE FROM sim_inbox WHERE reported = 1${scoped}`).run(...args).changes;
    },
  };
}

function conditions(filter: Omit<InboxSearch, 'limit'>): { where: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  if (filter.accountId !== undefined) {
    parts.push('m.account_id = ?');
    values.push(filter.accountId);
  }
  if (filter.phone !== undefined) {
    parts.push('i.to_addr = ?');
    values.push(filter.phone);
  }
  if (filter.query) {
    const pattern = `%${filter.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(`(i.to_addr LIKE ? ESCAPE '\\' OR i.body LIKE ? ESCAPE '\\')`);
    values.push(pattern, pattern);
  }
  if (filter.ids) {
    parts.push(`i.id IN (${filter.ids.map(() => '?').join(',')})`);
    values.push(...filter.ids);
  }
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', values };
}

interface ViewRow extends InboxRow {
  account_id: number;
  accepted_at: number;
  receipt_result: ReceiptResult | null;
  receipt_time: number | null;
}

interface ConversationRow {
  phone: string;
  n: number;
  last_id: number;
  last_at: number;
}

function toView(r: ViewRow): InboxView {
  return {
    ...fromRow(r),
    id: r.id,
    accountId: r.account_id,
    acceptedAt: r.accepted_at,
    receiptResult: r.receipt_result ?? undefined,
    receiptTime: r.receipt_time ?? undefined,
  };
}
