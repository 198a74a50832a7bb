import type { Command } from 'commander';
import { MAX_NUMBERS_PER_REQUEST } from '../domain/batches/batch.js';
import { CliError, counted } from './cli-error.js';
import { resolveCredentials, type CredentialOptions } from './client/credentials.js';
import { gatewayClient } from './client/gateway-client.js';
import { failOnError } from './open-store.js';
import { formatSeconds } from './send/progress-bar.js';
import { sendCsv, type SendSummary } from './send/send-csv.js';

interface SendOptions extends CredentialOptions {
  template: string;
  csv: string;
  sender?: string;
  paramsColumn?: string[];
  phoneColumn: string;
  userIdColumn: string;
  chunkSize: string;
  json?: boolean;
  at?: string;
  validity?: string;
}

/**
 * --at: an ISO 8601 date and time with its zone (2026-11-29T09:00:00+08:00, or Z) or Unix
 * seconds; answers Unix seconds. The gateway judges how far ahead it may be.
 */
export function sendAtOf(raw: string): number {
  if (/^\d{1,12}$/.test(raw)) return Number(raw);
  const zoned = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(raw);
  const ms = zoned ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) {
    throw new CliError(
      `--at ${raw}: give a date and time with its zone (2026-11-29T09:00:00+08:00) or Unix seconds`,
    );
  }
  return Math.floor(ms / 1000);
}

const UNIT_S: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** --validity: a duration such as 300, 300s, 5m, 2h or 1d; answers seconds. */
export function validityOf(raw: string): number {
  const m = /^(\d{1,7})([smhd]?)$/.exec(raw);
  if (!m) throw new CliError(`--validity ${raw}: give a duration such as 300, 90s, 5m, 2h or 1d`);
  return Number(m[1]) * (UNIT_S[m[2] || 's'] ?? 1);
}

/** Options shared by the commands that talk to a running gateway over HTTP. */
export function gatewayOptions(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'the gateway (WIREBIRD_URL; default http://127.0.0.1:$PORT or :8080)')
    .option('--key <key>', 'API key (WIREBIRD_API_KEY; default: ./data/dev-account.key)')
    .option('--account <AccountId>', 'the key’s account (WIREBIRD_ACCOUNT_ID)');
}

const SEND_HELP = `
The CSV's rows are sent in requests of --chunk-size numbers. Progress (rows, accepted, failed,
rate, ETA) goes to stderr; the summary and the SessionNos to stdout. Each answered request is
recorded in FILE.progress: run the same command again after an interruption and it resumes,
never sending a recorded request again (an unrecorded one is resent with its Idempotency-Key, so
the gateway answers it without sending twice). Remove FILE.progress to send the file again.

Exit codes: 0 every row accepted; 2 some rows failed (listed); 3 no row accepted; 1 an error
(the gateway unreachable, a bad option, a changed CSV).

--at holds the messages until then (SendAt); --validity drops those not handed to an upstream
within that time (ValidityPeriod, counted from --at when given): docs/api.md.

Examples:
  printf 'phone,name,code\\n+8613800001234,Ada,1234\\n' > numbers.csv
  wirebird send --template UTA9LZM7NVM4F --csv numbers.csv
  wirebird send -t UTA9LZM7NVM4F --csv numbers.csv --sender SHOP --params-column name code
  wirebird send -t UTA9LZM7NVM4F --csv numbers.csv --at 2026-11-29T09:00:00+08:00 --validity 2h
  WIREBIRD_URL=http://10.0.0.5:8080 WIREBIRD_API_KEY=wb_… WIREBIRD_ACCOUNT_ID=42 \\
    wirebird send -t UTA9LZM7NVM4F --csv numbers.csv --json`;

export function registerSend(program: Command): void {
  const cmd = program
    .command('send')
    .description('send a template to every number of a CSV file through a running gateway')
    .requiredOption('-t, --template <TemplateId>', 'an approved template')
    .requiredOption('--csv <file>', 'the CSV; its first row names the columns')
    .option('-s, --sender <SenderId>', 'a sender id registered for the account')
    .option(
      '-p, --params-column <column...>',
      'columns for {1}, {2}… in order (default: every column but the phone and user id)',
    )
    .option('--phone-column <column>', 'the column of phone numbers', 'phone')
    .option('--user-id-column <column>', 'the column of UserIds, if present', 'user_id')
    .option('--chunk-size <n>', `numbers per request, 1 to ${MAX_NUMBERS_PER_REQUEST}`, '1000')
    .option('--json', 'print the summary as JSON')
    .option('--at <time>', 'send at this time: 2026-11-29T09:00:00+08:00, or Unix seconds')
    .option('--validity <duration>', 'drop what is not sent within this: 90s, 5m, 2h, 1d');
  gatewayOptions(cmd)
    .addHelpText('after', SEND_HELP)
    .action(async (opts: SendOptions) => {
      try {
        const chunkSize = Number(opts.chunkSize);
        if (!/^\d+$/.test(opts.chunkSize) || chunkSize < 1 || chunkSize > MAX_NUMBERS_PER_REQUEST)
          throw new CliError(`--chunk-size must be 1 to ${MAX_NUMBERS_PER_REQUEST}`);
        const client = gatewayClient(resolveCredentials(opts));
        const summary = await sendCsv(
          {
            csv: opts.csv,
            templateId: opts.template,
            senderId: opts.sender ?? '',
            columns: {
              phone: opts.phoneColumn,
              params: opts.paramsColumn?.flatMap((c) => c.split(',')).filter(Boolean),
              userId: opts.userIdColumn,
            },
            chunkSize,
            ...(opts.at === undefined ? {} : { sendAt: sendAtOf(opts.at) }),
            ...(opts.validity === undefined ? {} : { validityS: validityOf(opts.validity) }),
          },
          client,
          process.stderr,
        );
        console.log(opts.json ? JSON.stringify(summary, null, 2) : describe(summary));
        process.exitCode = exitCodeOf(summary);
      } catch (err) {
        failOnError(err);
      }
    });
}

/** The exit codes `wirebird send --help` documents: scripts tell a partial send from a full one. */
export const SEND_EXIT = { allAccepted: 0, someFailed: 2, nothingSent: 3 } as const;

function exitCodeOf(s: SendSummary): number {
  if (s.failed === 0) return SEND_EXIT.allAccepted;
  return s.accepted > 0 ? SEND_EXIT.someFailed : SEND_EXIT.nothingSent;
}

const SHOWN_FAILURES = 20;

function describe(s: SendSummary): string {
  // The rate is this run's: rows an earlier run sent took none of its seconds.
  const sent = s.rows - s.resumedRows;
  const rate = s.seconds > 0 ? Math.round(sent / s.seconds) : 0;
  // A short run in tenths: "in 1s (24 rows/s)" for 83 ms read as a slow gateway.
  const took = s.seconds < 10 ? `${s.seconds.toFixed(1)}s` : formatSeconds(s.seconds);
  const lines = [
    `${counted(s.rows, 'row')}: ${s.accepted} accepted, ${s.failed} failed`,
    `${counted(s.requests, 'request')} (${counted(sent, 'row')}) in ${took} (${rate} rows/s)` +
      (s.resumedChunks > 0
        ? `; ${counted(s.resumedChunks, 'request')} (${counted(s.resumedRows, 'row')}) done by an earlier run`
        : ''),
  ];
  if (s.failures.length > 0) {
    lines.push(`failed rows (first ${Math.min(SHOWN_FAILURES, s.failures.length)}):`);
    for (const f of s.failures.slice(0, SHOWN_FAILURES)) {
      const where = f.line === undefined ? '' : `line ${f.line}, `;
      lines.push(`  ${where}${JSON.stringify(f.phone)}: ${f.reason}`);
    }
  }
  lines.push(`SessionNos (${s.sessionNos.length}):`, ...s.sessionNos.map((n) => `  ${n}`));
  lines.push(`progress: ${s.progressFile} (remove it to send this file again)`);
  return lines.join('\n');
}
