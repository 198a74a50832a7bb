import type {
  Conversation,
  ConversationSearch,
  InboxSearch,
  InboxView,
} from '../../domain/views/views.js';
import { inboxConditions, type Dialect } from '../inbox-search.js';
import {
  VIEW_COLUMNS,
  toConversation,
  toView,
  type ConversationRow,
  type ViewRow,
} from '../rows/views.js';
import type { Pool } from './database.js';

/** ILIKE: case-insensitive as SQLite's LIKE is (which folds ASCII letters only). */
const POSTGRES: Dialect = {
  param: (values) => `$${values.length}`,
  idIn(ids, values) {
    values.push(ids);
    return `i.id = ANY($${values.length}::bigint[])`;
  },
  like: 'ILIKE',
};

/** The console's reads of the simulator inbox, joined to the messages for account and receipt. */
export function postgresInboxViews(pool: Pool) {
  return {
    async searchInbox(filter: InboxSearch): Promise<InboxView[]> {
      if (filter.ids?.length === 0) return [];
      const { where, values } = inboxConditions(filter, POSTGRES);
      const r = await pool.query<ViewRow>(
        `SELECT ${VIEW_COLUMNS} FROM sim_inbox i JOIN messages m ON m.id = i.message_ref ${where}
         ORDER BY i.id DESC LIMIT $${values.length + 1}`,
        [...values, filter.limit],
      );
      return r.rows.map(toView);
    },
    async inboxConversations(filter: ConversationSearch): Promise<Conversation[]> {
      const { where, values } = inboxConditions(filter, POSTGRES);
      if (filter.before !== undefined) values.push(filter.before);
      const older = filter.before === undefined ? '' : `HAVING max(i.id) < $${values.length}`;
      const r = await pool.query<ConversationRow>(
        `SELECT i.to_addr AS phone, count(*) AS n, max(i.id) AS last_id, max(i.delivered_at) AS last_at
         FROM sim_inbox i JOIN messages m ON m.id = i.message_ref ${where}
         GROUP BY i.to_addr ${older} ORDER BY last_id DESC LIMIT $${values.length + 1}`,
        [...values, filter.limit],
      );
      return r.rows.map(toConversation);
    },
    async clearInbox(accountId?: number): Promise<number> {
      const r =
        accountId === undefined
          ? await pool.query('DELETE FROM sim_inbox WHERE reported')
          : await pool.query(
              `DELETE FROM sim_inbox i USING messages m
               WHERE i.reported AND m.id = i.message_ref AND m.account_id = $1`,
              [accountId],
            );
      return r.rowCount ?? 0;
    },
  };
}
