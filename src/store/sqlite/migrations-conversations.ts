import type { Migration } from './migrations.js';

/**
 * Business messages as conversations (docs/whatsapp.md): the time each contact last wrote to each
 * business phone (the 24-hour customer-service window), whether a phone's sends are held to it,
 * and the SMS a business message falls back to when it fails or is not delivered in time.
 */
export const sqliteMigrationsConversations: readonly Migration[] = [
  {
    version: 24,
    name: 'the 24-hour window per business phone and contact; SMS fallback of business messages',
    sql: `
      CREATE TABLE conversation_windows (
        business_phone TEXT NOT NULL,
        contact TEXT NOT NULL,
        last_inbound_at INTEGER NOT NULL,
        PRIMARY KEY (business_phone, contact)
      );
      -- NULL: the channel's default (on for WhatsApp, off for the simulator); 1 on, 0 off.
      ALTER TABLE business_phones ADD COLUMN window_guard INTEGER;
      CREATE TABLE business_fallbacks (
        message_id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        template_id TEXT NOT NULL,
        params TEXT NOT NULL,
        sender_id TEXT NOT NULL,
        due_at INTEGER,
        state TEXT NOT NULL,
        session_no TEXT,
        phone TEXT,
        reason TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        settled_at INTEGER
      );
      CREATE INDEX business_fallbacks_pending ON business_fallbacks (due_at) WHERE state = 'pending';
    `,
  },
];
