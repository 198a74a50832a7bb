import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { OptOut } from '../domain/opt-out/opt-out.js';
import type { Store } from '../domain/ports.js';
import { CliError } from './cli-error.js';
import { rows } from './send/csv-targets.js';
import { accountOption, cliAudit, failOnError, withStore } from './open-store.js';
import { errorText } from '../util/unknown-values.js';
import { regionOfAccount } from '../core/sms-rules.js';

const CHUNK = 1000;

/** `wirebird opt-outs import|export`: an account's opt-outs from and to CSV (docs/opt-out.md). */
export function registerOptOuts(program: Command): void {
  const optOuts = program.command('opt-outs').description("an account's opted-out numbers, as CSV");
  optOuts
    .command('import')
    .description('opt out every number of a CSV file (a Phone column, or the first column)')
    .argument('<file>', 'the CSV file; its header row names the columns')
    .requiredOption('-a, --account <AccountId>', 'the account')
    .option('-c, --config <file>', 'a JSON config file')
    .addHelpText('after', '\nExample:\n  wirebird opt-outs import --account 1 stop-list.csv')
    .action(async (file: string, opts: { account: string; config?: string }) => {
      await withStore(opts.config, async (store, config) => {
        const accountId = accountOption(opts.account);
        if (!(await store.accountExists(accountId))) {
          throw new CliError(`no account ${accountId}: create a key for it first`);
        }
        const region = await regionOfAccount(store, accountId, config.defaultRegion);
        const r = await importFile({ store, accountId, file, region, now: Date.now() });
        const fact = { action: 'opt_out.added', target: file, accountId };
        await cliAudit(store, { ...fact, detail: { Added: r.added } });
        for (const bad of r.refused) console.error(`line ${bad.line}: ${bad.reason}`);
        console.log(
          `${r.added} numbers opted out, ${r.already} already were, ${r.refused.length} rows refused`,
        );
        if (r.refused.length > 0) process.exitCode = 1;
      }).catch(failOnError);
    });
  optOuts
    .command('export')
    .description('write the opted-out numbers as CSV: Phone,Source,Keyword,CreateTime')
    .requiredOption('-a, --account <AccountId>', 'the account')
    .option('-o, --output <file>', 'the CSV file to write (default: standard output)')
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (opts: { account: string; output?: string; config?: string }) => {
      await withStore(opts.config, async (store) => {
        const out = opts.output ? createWriteStream(opts.output) : process.stdout;
        const n = await exportAll(store, accountOption(opts.account), out);
        if (opts.output) {
          // --output was given, so out is the file stream opened above.
          (out as ReturnType<typeof createWriteStream>).end();
          await once(out, 'finish');
          console.error(`${n} opted-out numbers written to ${opts.output}`);
        }
      }).catch(failOnError);
    });
}

interface Refused {
  line: number;
  reason: string;
}

/** Reads the file in chunks, each chunk one transaction with its events. */
async function importFile(o: {
  store: Store;
  accountId: number;
  file: string;
  region: string;
  now: number;
}): Promise<{ added: number; already: number; refused: Refused[] }> {
  // Loaded here: the phone metadata is most of what the CLI would load at start otherwise.
  const { normalizePhone } = await import('../domain/phones/phones.js');
  const refused: Refused[] = [];
  const totals = { added: 0, already: 0, refused };
  let chunk: OptOut[] = [];
  const flush = async () => {
    const added = await o.store.addOptOuts(chunk, o.now);
    totals.added += added.length;
    totals.already += chunk.length - added.length;
    chunk = [];
  };
  for await (const { raw, line } of phoneCells(o.file)) {
    const read = normalizePhone(raw, o.region);
    if (!read.ok) {
      totals.refused.push({ line, reason: `Phone ${JSON.stringify(raw)} ${read.reason}` });
      continue;
    }
    chunk.push({
      accountId: o.accountId,
      phone: read.e164,
      source: 'import',
      keyword: '',
      createdAt: o.now,
    });
    if (chunk.length >= CHUNK) await flush();
  }
  if (chunk.length > 0) await flush();
  return totals;
}

/** Each data row's phone (the Phone column, else the first), with its line for messages. */
async function* phoneCells(file: string): AsyncGenerator<{ raw: string; line: number }> {
  try {
    for await (const { record, info } of rows(file)) {
      const keys = Object.keys(record);
      const column = keys.find((k) => k.toLowerCase() === 'phone') ?? keys[0];
      yield { raw: column === undefined ? '' : (record[column] ?? ''), line: info.lines };
    }
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${errorText(err)}`);
  }
}

async function exportAll(store: Store, accountId: number, out: Writable): Promise<number> {
  out.write('Phone,Source,Keyword,CreateTime\n');
  let after: string | undefined;
  let n = 0;
  do {
    const page = await store.listOptOuts({ accountId, limit: CHUNK, ...(after ? { after } : {}) });
    for (const o of page.optOuts) {
      const line = [o.phone, o.source, csvCell(o.keyword), Math.floor(o.createdAt / 1000)].join(
        ',',
      );
      if (!out.write(`${line}\n`)) await once(out, 'drain');
      n++;
    }
    after = page.nextCursor;
  } while (after);
  return n;
}

function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
