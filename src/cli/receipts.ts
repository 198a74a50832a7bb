import type { Command } from 'commander';
import type { ReceiptPerPhone } from '../domain/receipts/receipt.js';
import { counted } from './cli-error.js';
import { resolveCredentials, type CredentialOptions } from './client/credentials.js';
import type { WirebirdClient } from '@wirebird/client';
import { cliErrorOf, gatewayClient } from './client/gateway-client.js';
import { failOnError } from './open-store.js';
import { gatewayOptions } from './send.js';

/** GetUSMSSendReceipt takes at most this many sessions per request. */
const SESSIONS_PER_REQUEST = 100;

interface ReceiptSession {
  SessionNo: string;
  ReceiptSet: ReceiptPerPhone[];
  /** Messages of the session not in a final state yet (GetSessionSummary's Pending). */
  Waiting: number;
}

export function registerReceipts(program: Command): void {
  const cmd = program
    .command('receipts <SessionNo...>')
    .description('print the receipts of sessions from a running gateway')
    .option('--json', 'print GetUSMSSendReceipt’s Data as JSON, each session with its Waiting');
  gatewayOptions(cmd)
    .addHelpText(
      'after',
      `
Only messages in a final state have a receipt; the messages still on their way are counted as
waiting (with --json, each session's Waiting). A session of another account, or one that does
not exist, is reported as not found.

Examples:
  wirebird receipts 6f1c2a9e-…
  wirebird receipts 6f1c2a9e-… 0b7d41c3-… --json`,
    )
    .action(async (sessionNos: string[], opts: CredentialOptions & { json?: boolean }) => {
      try {
        const client = gatewayClient(resolveCredentials(opts));
        const data = await fetchReceipts(client, sessionNos);
        const found = new Set(data.map((d) => d.SessionNo));
        const missing = sessionNos.filter((s) => !found.has(s));
        console.log(opts.json ? JSON.stringify(data, null, 2) : table(data));
        if (missing.length > 0) console.error(`not found: ${missing.join(' ')}`);
        if (missing.length > 0) process.exitCode = 1;
      } catch (err) {
        failOnError(err);
      }
    });
}

async function fetchReceipts(
  client: WirebirdClient,
  sessionNos: readonly string[],
): Promise<ReceiptSession[]> {
  const unique = [...new Set(sessionNos)];
  const out: ReceiptSession[] = [];
  try {
    for (let i = 0; i < unique.length; i += SESSIONS_PER_REQUEST) {
      const SessionNoSet = unique.slice(i, i + SESSIONS_PER_REQUEST);
      const receipts = await client.getUSMSSendReceipt({ SessionNoSet });
      const summaries = await client.getSessionSummary({ SessionNoSet });
      const pending = new Map(summaries.Data.map((s) => [s.SessionNo, s.Pending]));
      out.push(...receipts.Data.map((r) => ({ ...r, Waiting: pending.get(r.SessionNo) ?? 0 })));
    }
  } catch (err) {
    throw cliErrorOf(err, 'receipts');
  }
  return out;
}

const COLUMNS = ['SessionNo', 'Phone', 'Result', 'Code', 'Time (UTC)', 'Cost', 'UserId'];

function table(data: readonly ReceiptSession[]): string {
  const rows = data.flatMap((s) =>
    s.ReceiptSet.map((r) => [
      s.SessionNo,
      r.Phone,
      r.ReceiptResult,
      r.ReceiptCode,
      new Date(r.ReceiptTime * 1000).toISOString().replace('T', ' ').slice(0, 19),
      String(r.CostCount),
      r.UserId,
    ]),
  );
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const count = data.map(
    (s) => `${s.SessionNo}: ${counted(s.ReceiptSet.length, 'receipt')}, ${s.Waiting} still waiting`,
  );
  return [line(COLUMNS), ...rows.map(line), '', ...count].join('\n');
}
