/**
 * Numbered, forward-only migrations for PostgreSQL, recorded in schema_migrations; start-up and
 * `wirebird migrate` apply what is missing. Times are milliseconds since the epoch (BIGINT), as
 * in the SQLite schema, so both adapters hand the domain the same numbers.
 */
import { postgresMigrationsOutboxOptOutsEsmes } from './migrations-outbox-opt-outs-esmes.js';
import { postgresMigrationsCredentialsAudit } from './migrations-credentials-audit.js';
import { postgresMigrationsUpstreamIssuer } from './migrations-upstream-issuer.js';
import { postgresMigrationsConversations } from './migrations-conversations.js';
import { postgresMigrationsValidity } from './migrations-validity.js';
import { postgresMigrationsPolicy } from './migrations-policy.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const postgresMigrationsOneWay: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, templates, messages, receipts and the simulator inbox',
    sql: `
      CREATE TABLE accounts (account_id BIGINT PRIMARY KEY, created_at BIGINT NOT NULL);
      CREATE TABLE api_keys (
        key_hash TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE sender_ids (
        account_id BIGINT NOT NULL,
        sender_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, sender_id)
      );
      CREATE TABLE business_phones (
        account_id BIGINT NOT NULL,
        business_phone TEXT NOT NULL,
        channel TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, business_phone)
      );
      CREATE TABLE templates (
        template_id TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        purpose INTEGER NOT NULL,
        template_name TEXT NOT NULL,
        template TEXT NOT NULL,
        status INTEGER NOT NULL,
        remark TEXT NOT NULL,
        err_desc TEXT NOT NULL,
        instruction TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX templates_account ON templates (account_id);
      CREATE INDEX templates_status ON templates (status, created_at);
      CREATE TABLE sessions (
        session_no TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        accepted_count INTEGER NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE messages (
        id BIGSERIAL PRIMARY KEY,
        kind TEXT NOT NULL,
        account_id BIGINT NOT NULL,
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
        -- queued: when it may be sent; submitting: when its lease expires; otherwise NULL.
        due_at BIGINT,
        upstream_id TEXT,
        accepted_at BIGINT NOT NULL,
        submitted_at BIGINT,
        last_error TEXT,
        receipt_result TEXT,
        receipt_code TEXT,
        receipt_desc TEXT,
        receipt_time BIGINT
      );
      CREATE INDEX messages_session ON messages (session_no, id) WHERE session_no IS NOT NULL;
      CREATE UNIQUE INDEX messages_message_id ON messages (message_id) WHERE message_id IS NOT NULL;
      CREATE INDEX messages_due ON messages (due_at) WHERE due_at IS NOT NULL;
      CREATE INDEX messages_awaiting ON messages (submitted_at) WHERE state = 'submitted';
      CREATE INDEX messages_upstream ON messages (route, upstream_id) WHERE upstream_id IS NOT NULL;
      CREATE TABLE message_events (
        id BIGSERIAL PRIMARY KEY,
        message_ref BIGINT NOT NULL,
        status TEXT NOT NULL,
        at BIGINT NOT NULL,
        code TEXT NOT NULL,
        descr TEXT NOT NULL
      );
      CREATE INDEX message_events_ref ON message_events (message_ref, id);
      CREATE TABLE early_reports (
        route TEXT NOT NULL,
        upstream_id TEXT NOT NULL,
        status TEXT NOT NULL,
        code TEXT NOT NULL,
        descr TEXT NOT NULL,
        at BIGINT NOT NULL,
        received_at BIGINT NOT NULL,
        PRIMARY KEY (route, upstream_id, status)
      );
      CREATE INDEX early_reports_received ON early_reports (received_at);
      CREATE TABLE idempotency_keys (
        account_id BIGINT NOT NULL,
        idem_key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        response TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, idem_key)
      );
      CREATE TABLE sim_inbox (
        id BIGSERIAL PRIMARY KEY,
        message_ref BIGINT NOT NULL UNIQUE,
        route TEXT NOT NULL,
        upstream_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        from_addr TEXT NOT NULL,
        to_addr TEXT NOT NULL,
        body TEXT NOT NULL,
        type TEXT NOT NULL,
        segments INTEGER NOT NULL,
        encoding TEXT NOT NULL,
        delivered_at BIGINT NOT NULL,
        report_status TEXT NOT NULL,
        report_due_at BIGINT NOT NULL,
        reported BOOLEAN NOT NULL,
        submissions INTEGER NOT NULL DEFAULT 1,
        last_attempt INTEGER NOT NULL DEFAULT 1
      );
      CREATE INDEX sim_inbox_to ON sim_inbox (to_addr, id);
      CREATE INDEX sim_inbox_pending ON sim_inbox (report_due_at) WHERE NOT reported;
    `,
  },
  {
    version: 2,
    name: 'token buckets shared by every node, one per route',
    sql: `
      CREATE TABLE route_buckets (
        route TEXT PRIMARY KEY,
        tokens DOUBLE PRECISION NOT NULL,
        updated_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'message parts: multipart SMS whose parts are reported one by one',
    sql: `
      ALTER TABLE messages ADD COLUMN parts INTEGER NOT NULL DEFAULT 1;
      -- An SMSC may hand out an id again after wrapping around: the newest message owns it.
      CREATE TABLE message_parts (
        route TEXT NOT NULL,
        upstream_id TEXT NOT NULL,
        message_ref BIGINT NOT NULL,
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
    version: 4,
    name: 'business phones on the WhatsApp Cloud API: phone number id and access token',
    sql: `ALTER TABLE business_phones ADD COLUMN phone_number_id TEXT;
      ALTER TABLE business_phones ADD COLUMN access_token TEXT;`,
  },
  {
    version: 5,
    name: 'uploaded media files and the WhatsApp media ids they got per phone number id',
    sql: `
      CREATE TABLE media (
        media_id TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        mime_type TEXT NOT NULL,
        file_name TEXT NOT NULL,
        size BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        bytes BYTEA NOT NULL,
        created_at BIGINT NOT NULL
      );
      -- Photos, videos and audio are compressed already: stored out of line as they are, with no
      -- attempt to compress them again.
      ALTER TABLE media ALTER COLUMN bytes SET STORAGE EXTERNAL;
      CREATE TABLE media_uploads (
        media_id TEXT NOT NULL,
        phone_number_id TEXT NOT NULL,
        whatsapp_media_id TEXT NOT NULL,
        uploaded_at BIGINT NOT NULL,
        PRIMARY KEY (media_id, phone_number_id)
      );
    `,
  },
  {
    version: 6,
    name: 'UCloud dialect: key pairs, signatures, template fields; recent sessions by time',
    sql: `
      ALTER TABLE templates ADD COLUMN international INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE templates ADD COLUMN unsubscribe_info TEXT NOT NULL DEFAULT '';
      -- The private key is needed to check signatures, so it is kept sealed, never hashed.
      CREATE TABLE ucloud_keys (
        public_key TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        sealed_private_key TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX ucloud_keys_account ON ucloud_keys (account_id);
      CREATE TABLE signatures (
        sig_id TEXT PRIMARY KEY,
        account_id BIGINT NOT NULL,
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
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
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
    version: 7,
    name: "an account's own default region for numbers written without a country code",
    sql: `ALTER TABLE accounts ADD COLUMN default_region TEXT;`,
  },
  {
    version: 8,
    name: 'inbound messages, SMS numbers of one account each, the latest message to a phone',
    sql: `
      CREATE TABLE inbound_messages (
        seq BIGSERIAL PRIMARY KEY,
        inbound_id TEXT NOT NULL UNIQUE,
        dedupe_key TEXT NOT NULL,
        channel TEXT NOT NULL,
        account_id BIGINT,
        from_addr TEXT NOT NULL,
        to_addr TEXT NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        complete BOOLEAN NOT NULL,
        received_at BIGINT NOT NULL,
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
    version: 9,
    name: 'parts of concatenated SMS replies, kept until their message is whole',
    sql: `
      CREATE TABLE inbound_parts (
        group_key TEXT NOT NULL,
        part_no INTEGER NOT NULL,
        total INTEGER NOT NULL,
        body TEXT NOT NULL,
        from_addr TEXT NOT NULL,
        to_addr TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        PRIMARY KEY (group_key, part_no)
      );
      CREATE INDEX inbound_parts_age ON inbound_parts (received_at);
    `,
  },
];

export const postgresMigrations: readonly Migration[] = [
  ...postgresMigrationsOneWay,
  ...postgresMigrationsOutboxOptOutsEsmes,
  ...postgresMigrationsCredentialsAudit,
  ...postgresMigrationsUpstreamIssuer,
  ...postgresMigrationsConversations,
  ...postgresMigrationsValidity,
  ...postgresMigrationsPolicy,
];
