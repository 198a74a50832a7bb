/**
 * Numbered, forward-only migrations for SQLite. Each runs once in its own transaction and is
 * recorded in schema_migrations; start-up and `wirebird migrate` both apply what is missing.
 */
import { sqliteMigrationsOutboxOptOutsEsmes } from './migrations-outbox-opt-outs-esmes.js';
import { sqliteMigrationsCredentialsAudit } from './migrations-credentials-audit.js';
import { sqliteMigrationsUpstreamIssuer } from './migrations-upstream-issuer.js';
import { sqliteMigrationsConversations } from './migrations-conversations.js';
import { sqliteMigrationsValidity } from './migrations-validity.js';
import { sqliteMigrationsPolicy } from './migrations-policy.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const sqliteMigrationsOneWay: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts and templates',
    sql: `
      CREATE TABLE accounts (
        account_id INTEGER PRIMARY KEY,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE api_keys (
        key_hash TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE sender_ids (
        account_id INTEGER NOT NULL,
        sender_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, sender_id)
      );
      CREATE TABLE business_phones (
        account_id INTEGER NOT NULL,
        business_phone TEXT NOT NULL,
        channel TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, business_phone)
      );
      CREATE TABLE templates (
        template_id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        purpose INTEGER NOT NULL,
        template_name TEXT NOT NULL,
        template TEXT NOT NULL,
        status INTEGER NOT NULL,
        remark TEXT NOT NULL,
        err_desc TEXT NOT NULL,
        instruction TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX templates_account ON templates (account_id);
      CREATE INDEX templates_status ON templates (status);
    `,
  },
  {
    version: 2,
    name: 'messages, sessions, receipts and the simulator inbox',
    sql: `
      CREATE TABLE sessions (
        session_no TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        accepted_count INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        account_id INTEGER NOT NULL,
        session_no TEXT,
        message_id TEXT,
        phone TEXT NOT NULL,
        e164 TEXT NOT NULL,
        route TEXT NOT NULL,
        template_id TEXT,
        params TEXT,
        sender_id TEXT NOT NULL,
        extend_code TEXT NOT NULL,
        user_id TEXT NOT NULL,
        body TEXT NOT NULL,
        type TEXT NOT NULL,
        business_phone TEXT NOT NULL,
        cost_count INTEGER NOT NULL,
        state TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        due_at INTEGER,
        upstream_id TEXT,
        accepted_at INTEGER NOT NULL,
        submitted_at INTEGER,
        last_error TEXT,
        receipt_result TEXT,
        receipt_code TEXT,
        receipt_desc TEXT,
        receipt_time INTEGER
      );
      CREATE INDEX messages_session ON messages (session_no) WHERE session_no IS NOT NULL;
      CREATE UNIQUE INDEX messages_message_id ON messages (message_id) WHERE message_id IS NOT NULL;
      CREATE INDEX messages_due ON messages (due_at) WHERE due_at IS NOT NULL;
      CREATE INDEX messages_awaiting ON messages (submitted_at) WHERE state = 'submitted';
      CREATE INDEX messages_upstream ON messages (route, upstream_id) WHERE upstream_id IS NOT NULL;
      CREATE TABLE message_events (
        message_ref INTEGER NOT NULL,
        status TEXT NOT NULL,
        at INTEGER NOT NULL,
        code TEXT NOT NULL,
        descr TEXT NOT NULL
      );
      CREATE INDEX message_events_ref ON message_events (message_ref);
      CREATE TABLE early_reports (
        route TEXT NOT NULL,
        upstream_id TEXT NOT NULL,
        status TEXT NOT NULL,
        code TEXT NOT NULL,
        descr TEXT NOT NULL,
        at INTEGER NOT NULL,
        received_at INTEGER NOT NULL,
        PRIMARY KEY (route, upstream_id, status)
      );
      CREATE TABLE idempotency_keys (
        account_id INTEGER NOT NULL,
        idem_key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        response TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, idem_key)
      );
      CREATE TABLE sim_inbox (
        id INTEGER PRIMARY KEY,
        message_ref INTEGER NOT NULL UNIQUE,
        route TEXT NOT NULL,
        upstream_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        from_addr TEXT NOT NULL,
        to_addr TEXT NOT NULL,
        body TEXT NOT NULL,
        type TEXT NOT NULL,
        segments INTEGER NOT NULL,
        encoding TEXT NOT NULL,
        delivered_at INTEGER NOT NULL,
        report_status TEXT NOT NULL,
        report_due_at INTEGER NOT NULL,
        reported INTEGER NOT NULL
      );
      CREATE INDEX sim_inbox_to ON sim_inbox (to_addr, id);
      CREATE INDEX sim_inbox_pending ON sim_inbox (report_due_at) WHERE reported = 0;
    `,
  },
  {
    version: 3,
    name: 'template versions for compare-and-set saves',
    sql: `ALTER TABLE templates ADD COLUMN version INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    version: 4,
    name: 'message parts: multipart SMS whose parts are reported one by one',
    sql: `
      ALTER TABLE messages ADD COLUMN parts INTEGER NOT NULL DEFAULT 1;
      CREATE TABLE message_parts (
        route TEXT NOT NULL,
        upstream_id TEXT NOT NULL,
        message_ref INTEGER NOT NULL,
        part_no INTEGER NOT NULL,
        status TEXT,
        code TEXT,
        descr TEXT,
        PRIMARY KEY (route, upstream_id)
      );
      CREATE INDEX message_parts_ref ON message_parts (message_ref, part_no);
    `,
  },
  {
    version: 5,
    name: 'the simulator inbox counts resubmissions',
    sql: `ALTER TABLE sim_inbox ADD COLUMN submissions INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE sim_inbox ADD COLUMN last_attempt INTEGER NOT NULL DEFAULT 1;`,
  },
  {
    version: 6,
    name: 'business phones on the WhatsApp Cloud API: phone number id and access token',
    sql: `ALTER TABLE business_phones ADD COLUMN phone_number_id TEXT;
      ALTER TABLE business_phones ADD COLUMN access_token TEXT;`,
  },
  {
    version: 7,
    name: 'uploaded media files and the WhatsApp media ids they got per phone number id',
    sql: `
      CREATE TABLE media (
        media_id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        mime_type TEXT NOT NULL,
        file_name TEXT NOT NULL,
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        bytes BLOB NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE media_uploads (
        media_id TEXT NOT NULL,
        phone_number_id TEXT NOT NULL,
        whatsapp_media_id TEXT NOT NULL,
        uploaded_at INTEGER NOT NULL,
        PRIMARY KEY (media_id, phone_number_id)
      );
    `,
  },
  {
    version: 8,
    name: 'UCloud dialect: key pairs, signatures, template fields; recent sessions by time',
    sql: `
      ALTER TABLE templates ADD COLUMN international INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE templates ADD COLUMN unsubscribe_info TEXT NOT NULL DEFAULT '';
      -- The private key is needed to check signatures, so it is kept sealed, never hashed.
      CREATE TABLE ucloud_keys (
        public_key TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        sealed_private_key TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX ucloud_keys_account ON ucloud_keys (account_id);
      CREATE TABLE signatures (
        sig_id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        sig_content TEXT NOT NULL,
        sig_type INTEGER NOT NULL,
        sig_purpose INTEGER NOT NULL,
        certificate_type INTEGER NOT NULL,
        description TEXT NOT NULL,
        scene_desc TEXT NOT NULL,
        international INTEGER NOT NULL,
        qualification_id TEXT NOT NULL,
        file_media_id TEXT NOT NULL,
        proxy_file_media_id TEXT NOT NULL,
        status INTEGER NOT NULL,
        err_desc TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        version INTEGER NOT NULL
      );
      CREATE INDEX signatures_account ON signatures (account_id, sig_content);
      CREATE INDEX signatures_status ON signatures (status);
      -- The console's list of recent sessions, the admin's (all) and an account's.
      CREATE INDEX sessions_recent ON sessions (created_at);
      CREATE INDEX sessions_account_recent ON sessions (account_id, created_at);
    `,
  },
  {
    version: 9,
    name: "an account's own default region for numbers written without a country code",
    sql: `ALTER TABLE accounts ADD COLUMN default_region TEXT;`,
  },
  {
    version: 10,
    name: 'inbound messages, SMS numbers of one account each, the latest message to a phone',
    sql: `
      CREATE TABLE inbound_messages (
        seq INTEGER PRIMARY KEY,
        inbound_id TEXT NOT NULL UNIQUE,
        dedupe_key TEXT NOT NULL,
        channel TEXT NOT NULL,
        account_id INTEGER,
        from_addr TEXT NOT NULL,
        to_addr TEXT NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        complete INTEGER NOT NULL,
        received_at INTEGER NOT NULL,
        reply_session_no TEXT,
        reply_message_id TEXT
      );
      CREATE UNIQUE INDEX inbound_dedupe ON inbound_messages (channel, dedupe_key);
      CREATE INDEX inbound_account ON inbound_messages (account_id, seq);
      CREATE UNIQUE INDEX business_phones_sms ON business_phones (business_phone)
        WHERE channel = 'sms';
      -- An inbound message names the latest message its account sent to the phone.
      CREATE INDEX messages_e164 ON messages (e164, id);
    `,
  },
  {
    version: 11,
    name: 'parts of concatenated SMS replies, kept until their message is whole',
    sql: `
      CREATE TABLE inbound_parts (
        group_key TEXT NOT NULL,
        part_no INTEGER NOT NULL,
        total INTEGER NOT NULL,
        body TEXT NOT NULL,
        from_addr TEXT NOT NULL,
        to_addr TEXT NOT NULL,
        received_at INTEGER NOT NULL,
        PRIMARY KEY (group_key, part_no)
      );
      CREATE INDEX inbound_parts_age ON inbound_parts (received_at);
    `,
  },
];

export const sqliteMigrations: readonly Migration[] = [
  ...sqliteMigrationsOneWay,
  ...sqliteMigrationsOutboxOptOutsEsmes,
  ...sqliteMigrationsCredentialsAudit,
  ...sqliteMigrationsUpstreamIssuer,
  ...sqliteMigrationsConversations,
  ...sqliteMigrationsValidity,
  ...sqliteMigrationsPolicy,
];
