import type { Migration } from './migrations.js';

/**
 * Account policy (docs/accounts.md): the limits, the credit ledger and the counters acceptance
 * reads and writes in its own transaction, under the policy row's lock. `balance` is the ledger's
 * sum, kept beside it by every write to the ledger, so a check costs one row, not a sum. A message
 * paid for that ends refused upstream, cancelled or expired is credited back by the trigger, in
 * the transaction that ends it, whichever of the many paths that end a message it takes.
 *
 * Version 25 (27 on SQLite) replaced the hourly guard's row per number with the messages' own
 * index: a row per number was a second write to a random place per message, for a fact the
 * message rows already hold. The index also serves the reply link (the account's latest message
 * to a number).
 */
export const postgresMigrationsPolicy: readonly Migration[] = [
  {
    version: 24,
    name: 'account policy: limits, credit ledger, daily and per-number counters',
    sql: `
      CREATE TABLE account_policies (
        account_id BIGINT PRIMARY KEY,
        countries TEXT,
        max_per_second INTEGER,
        daily_limit BIGINT,
        recipient_hourly_limit INTEGER,
        prepaid BOOLEAN NOT NULL DEFAULT false,
        balance BIGINT NOT NULL DEFAULT 0,
        next_slot DOUBLE PRECISION NOT NULL DEFAULT 0,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE credit_ledger (
        id BIGSERIAL PRIMARY KEY,
        account_id BIGINT NOT NULL,
        cost_count BIGINT NOT NULL,
        kind TEXT NOT NULL,
        reference TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX credit_ledger_account ON credit_ledger (account_id, id);
      CREATE INDEX credit_ledger_debits ON credit_ledger (reference) WHERE kind = 'debit';
      CREATE TABLE account_usage (
        account_id BIGINT NOT NULL,
        day INTEGER NOT NULL,
        cost_count BIGINT NOT NULL,
        told TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (account_id, day)
      );
      CREATE TABLE recipient_sends (
        account_id BIGINT NOT NULL,
        number BIGINT NOT NULL,
        times TEXT NOT NULL,
        PRIMARY KEY (account_id, number)
      );
      CREATE FUNCTION credit_back() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM credit_ledger WHERE reference = NEW.session_no
                   AND kind = 'debit' AND account_id = NEW.account_id) THEN
          INSERT INTO credit_ledger (account_id, cost_count, kind, reference, created_at)
            VALUES (NEW.account_id, OLD.cost_count, 'refund', NEW.session_no,
                    COALESCE(NEW.receipt_time * 1000, NEW.accepted_at));
          UPDATE account_policies SET balance = balance + OLD.cost_count
            WHERE account_id = NEW.account_id;
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER credit_back AFTER UPDATE OF state ON messages FOR EACH ROW
        WHEN (NEW.state = 'final' AND OLD.state <> 'final' AND NEW.kind = 'sms'
          AND NEW.session_no IS NOT NULL
          AND (NEW.receipt_result = 'SubmitFail' OR NEW.receipt_code IN ('CANCELED', 'EXPIRED')))
        EXECUTE FUNCTION credit_back();
    `,
  },
  {
    version: 25,
    name: 'the hourly guard counts the messages index, not a row per number',
    sql: `
      DROP TABLE recipient_sends;
      DROP INDEX messages_e164;
      -- E.164 is ASCII: compared byte by byte, not by the database's locale, at half the cost
      -- (the type is unchanged, so the table is not rewritten).
      ALTER TABLE messages ALTER COLUMN e164 TYPE text COLLATE "C";
      CREATE INDEX messages_recipient ON messages (e164, account_id, kind, accepted_at, id);
    `,
  },
  {
    version: 26,
    name: "an operator's credits found by their Reference",
    sql: `
      CREATE INDEX credit_ledger_credits ON credit_ledger (account_id, reference)
        WHERE kind = 'credit';
    `,
  },
];
