/**
 * Issue 19's target 6 measures acceptance against a ceiling: the same rows written by
 * better-sqlite3 alone, with nothing of the gateway around it (no HTTP, no JSON, no validation,
 * no threads), into a fresh database with the gateway's schema, pragmas and transactions of one
 * request each. The rows are read back from the gateway's own database after its run, so the
 * ceiling inserts exactly what acceptance inserted.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate, openDatabase, type Db } from '../src/store/sqlite/database.js';
import { INSERT_COLUMNS } from '../src/store/rows/messages.js';
import { fmt } from './stats.js';

/** The columns of INSERT_COLUMNS a stored row still holds as accepted (the rest are constants). */
const STORED = `kind, account_id, session_no, phone, e164, route, template_id, params, sender_id,
  extend_code, user_id, body, cost_count, accepted_at`;
const ROW = `(?,?,?,NULL,?,?,?,?,?,?,?,?,?,'sms','',?,'queued','accepted',?,?)`;
const ROWS_PER_STATEMENT = 64;

type Row = unknown[];
interface Session {
  values: Row;
  rows: Row[];
}

export interface CeilingFigures {
  rows: number;
  sessions: number;
  /** Rows/s with one prepared single-row INSERT per row, one transaction per session. */
  singleRowPerS: number;
  /** Rows/s with 64-row INSERT statements (the shape the gateway uses), same transactions. */
  multiRowPerS: number;
  /** Rows/s with 64-row INSERTs, every row in one transaction: no commit per request at all. */
  oneTransactionPerS: number;
  bestPerS: number;
}

function readSessions(sourceDb: string): Session[] {
  const src = openDatabase({ path: sourceDb });
  try {
    const sessions = new Map<string, Session>();
    const head = src.prepare(
      'SELECT session_no, account_id, accepted_count, created_at FROM sessions ORDER BY created_at',
    );
    for (const s of head.raw().iterate() as Iterable<Row>) {
      sessions.set(s[0] as string, { values: s, rows: [] });
    }
    const rows = src.prepare(`SELECT ${STORED} FROM messages WHERE kind = 'sms' ORDER BY id`);
    for (const r of rows.raw().iterate() as Iterable<Row>) {
      const acceptedAt = r[13];
      sessions.get(r[2] as string)?.rows.push([...r, acceptedAt]);
    }
    return [...sessions.values()].filter((s) => s.rows.length > 0);
  } finally {
    src.close();
  }
}

function freshDb(path: string, synchronous: 'FULL' | 'NORMAL' | undefined): Db {
  rmSync(path, { force: true });
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
  const db = openDatabase({ path, synchronous });
  migrate(db);
  return db;
}

/**
 * Rows/s writing `sessions` with `perStatement` rows per INSERT, a transaction per session or,
 * with `oneTransaction`, one around them all.
 */
function timeInserts(db: Db, sessions: Session[], perStatement: number, oneTransaction: boolean) {
  const insertSession = db.prepare(
    'INSERT INTO sessions (session_no, account_id, accepted_count, created_at) VALUES (?,?,?,?)',
  );
  const statements = new Map<number, ReturnType<Db['prepare']>>();
  const statementFor = (n: number) => {
    let s = statements.get(n);
    if (!s) {
      const rows = Array.from({ length: n }, () => ROW).join(',');
      s = db.prepare(`INSERT INTO messages (${INSERT_COLUMNS}) VALUES ${rows}`);
      statements.set(n, s);
    }
    return s;
  };
  const write = db.transaction((s: Session) => {
    insertSession.run(s.values);
    for (let i = 0; i < s.rows.length; i += perStatement) {
      const chunk = s.rows.slice(i, i + perStatement);
      statementFor(chunk.length).run(chunk.flat());
    }
  });
  let rows = 0;
  const start = performance.now();
  const writeAll = () => {
    for (const s of sessions) {
      write(s);
      rows += s.rows.length;
    }
  };
  if (oneTransaction) db.transaction(writeAll)();
  else writeAll();
  return rows / ((performance.now() - start) / 1000);
}

/**
 * Inserts the rows the gateway accepted into `workDir`'s fresh databases, once one row per
 * statement and once 64 rows per statement, and reports both rates.
 */
export function measureSqliteCeiling(
  sourceDb: string,
  workDir: string,
  synchronous: 'FULL' | 'NORMAL' | undefined,
): CeilingFigures {
  const sessions = readSessions(sourceDb);
  const rate = (perStatement: number, oneTransaction = false) => {
    const path = join(workDir, `ceiling-${perStatement}.db`);
    const db = freshDb(path, synchronous);
    try {
      return timeInserts(db, sessions, perStatement, oneTransaction);
    } finally {
      db.close();
      for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
    }
  };
  const singleRowPerS = rate(1);
  const multiRowPerS = rate(ROWS_PER_STATEMENT);
  const oneTransactionPerS = rate(ROWS_PER_STATEMENT, true);
  return {
    rows: sessions.reduce((n, s) => n + s.rows.length, 0),
    sessions: sessions.length,
    singleRowPerS,
    multiRowPerS,
    oneTransactionPerS,
    bestPerS: Math.max(singleRowPerS, multiRowPerS, oneTransactionPerS),
  };
}

export function ceilingRows(c: CeilingFigures, acceptedPerS: number): [string, string][] {
  const share = (100 * acceptedPerS) / c.bestPerS;
  return [
    [
      'raw better-sqlite3 inserts of the same rows: 1 / 64 rows per INSERT, a commit per request; 64 rows per INSERT, one commit',
      `${fmt.int(c.singleRowPerS)} / ${fmt.int(c.multiRowPerS)}; ${fmt.int(c.oneTransactionPerS)} rows/s (${fmt.int(c.rows)} rows, ${fmt.int(c.sessions)} requests)`,
    ],
    [
      '**acceptance ÷ the fastest raw insert**',
      `**${share.toFixed(0)} %** (target ≥ 60 %, issue 19)`,
    ],
  ];
}
