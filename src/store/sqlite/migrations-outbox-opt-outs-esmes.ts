import type { Migration } from './migrations.js';

/**
 * The outbox of events, opt-outs, the files inbound messages carry, and the ESMEs the SMPP server
 * face serves (their credentials, binds and own parts); applied after those of migrations.ts, in
 * version order.
 */
export const sqliteMigrationsOutboxOptOutsEsmes: readonly Migration[] = [
  {
    version: 12,
    name: 'the outbox: webhook endpoints, events, their deliveries and attempts',
    sql: `
      CREATE TABLE webhook_endpoints (
        endpoint_id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        url TEXT NOT NULL,
        description TEXT NOT NULL,
        event_types TEXT NOT NULL,
        secret TEXT NOT NULL,
        previous_secret TEXT,
        previous_until INTEGER,
        disabled INTEGER NOT NULL DEFAULT 0,
        disabled_reason TEXT NOT NULL DEFAULT '',
        disabled_at INTEGER,
        failing_since INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id);
      CREATE TABLE outbox_events (
        event_id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id INTEGER NOT NULL,
        type TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        event_id INTEGER NOT NULL,
        endpoint_id TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        claims INTEGER NOT NULL DEFAULT 0,
        -- When it is due: the next attempt, or while claimed the end of the claim's lease.
        next_at INTEGER,
        last_status INTEGER,
        last_error TEXT NOT NULL DEFAULT '',
        last_at INTEGER,
        latency_ms INTEGER,
        delivered_at INTEGER,
        PRIMARY KEY (endpoint_id, event_id)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_at)
        WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
      CREATE TABLE webhook_attempts (
        endpoint_id TEXT NOT NULL,
        event_id INTEGER NOT NULL,
        attempt INTEGER NOT NULL,
        at INTEGER NOT NULL,
        status_code INTEGER,
        error TEXT NOT NULL,
        latency_ms INTEGER NOT NULL
      );
      CREATE INDEX webhook_attempts_delivery ON webhook_attempts (endpoint_id, event_id);
      -- Each event about a message carries the message's own count, so receivers can order them.
      ALTER TABLE messages ADD COLUMN event_seq INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 13,
    name: "opt-outs per account and phone, and each account's keywords",
    sql: `
      CREATE TABLE opt_outs (
        account_id INTEGER NOT NULL,
        phone TEXT NOT NULL,
        source TEXT NOT NULL,
        keyword TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, phone)
      );
      -- JSON arrays; NULL keeps the defaults (docs/opt-out.md).
      ALTER TABLE accounts ADD COLUMN opt_out_keywords TEXT;
      ALTER TABLE accounts ADD COLUMN opt_in_keywords TEXT;
      ALTER TABLE accounts ADD COLUMN opt_out_exempt_verification INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 14,
    name: 'the file a WhatsApp message carries, and the queue that fetches it',
    sql: `
      -- JSON of the message's media (docs/inbound.md); state and due time are what the fetcher
      -- claims by, so a pending file survives any restart until it is stored or given up.
      ALTER TABLE inbound_messages ADD COLUMN media TEXT;
      ALTER TABLE inbound_messages ADD COLUMN media_state TEXT;
      ALTER TABLE inbound_messages ADD COLUMN media_due_at INTEGER;
      ALTER TABLE inbound_messages ADD COLUMN media_attempts INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX inbound_media_due ON inbound_messages (media_due_at)
        WHERE media_state = 'pending';
    `,
  },
  {
    version: 15,
    name: 'credentials ESMEs bind to the SMPP server with',
    sql: `
      CREATE TABLE smpp_credentials (
        system_id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        password_hash TEXT NOT NULL,
        -- Comma-separated CIDRs; '' lets any address bind.
        allowed_networks TEXT NOT NULL,
        max_binds INTEGER NOT NULL,
        max_tps INTEGER NOT NULL,
        bind_window INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX smpp_credentials_account ON smpp_credentials (account_id, system_id);
    `,
  },
  {
    version: 16,
    name: 'the SMPP bind a message was submitted on, for its receipt',
    sql: `
      -- The system_id whose binds get the message's receipt as a deliver_sm; NULL for the rest.
      ALTER TABLE messages ADD COLUMN receipt_to TEXT;
    `,
  },
  {
    version: 17,
    name: 'the part of a concatenated SMS an ESME split itself',
    sql: `
      -- ref/total/seq/bits (domain/messages/concat.ts); NULL for every other message.
      ALTER TABLE messages ADD COLUMN concat TEXT;
    `,
  },
];
