import type {
  Conversation,
  ConversationSearch,
  InboxSearch,
  InboxView,
} from '../../domain/views/views.js';
import { inboxConditions, type Dialect } from '../inbox-search.js';
import {
  toConversation,
  toView,
  type ConversationRow,
  type ViewRow,
  VIEW_COLUMNS,
} from '../rows/views.js';
import type { Db } from './database.js';

const SQLITE: Dialect = {
  param: () => '?',
  idIn(ids, values) {
    values.push(...ids);
    return `i.id IN (${ids.map(() => '?').join(',')})`;
  },
  like: 'LIKE',
};

/** The console's reads of the simulator inbox, joined to the messages for account and receipt. */
export function sqliteInboxViews(db: Db) {
  return {
    async searchInbox(filter: InboxSearch): Promise<InboxView[]> {
      if (filter.ids?.length === 0) return [];
      const { where, values } = inboxConditions(filter, SQLITE);
      const rows = db
        .prepare<unknown[], ViewRow>(
          `SELECT ${VIEW_COLUMNS}
           FROM sim_inbox i JOIN messages m ON m.id = i.message_ref ${where}
           ORDER BY i.id DESC LIMIT ?`,
        )
        .all(...values, filter.limit);
      return rows.map(toView);
    },
    async inboxConversations(filter: ConversationSearch): Promise<Conversation[]> {
      const { where, values } = inboxConditions(filter, SQLITE);
      const older = filter.before === undefined ? '' : 'HAVING max(i.id) < ?';
      if (filter.before !== undefined) values.push(filter.before);
      const rows = db
        .prepare<unknown[], ConversationRow>(
          `SELECT i.to_addr AS phone, count(*) AS n, max(i.id) AS last_id, max(i.delivered_at) AS last_at
           FROM sim_inbox i JOIN messages m ON m.id = i.message_ref ${where}
           GROUP BY i.to_addr ${older} ORDER BY last_id DESC LIMIT ?`,
        )
        .all(...values, filter.limit);
      return rows.map(toConversation);
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
