import { InvalidArgumentError, type Command } from 'commander';
import type { SmscFaults } from '../smsc-sim/faults.js';
import type { ReceiptStyle } from '../smsc-sim/handset.js';
import { isOneOf } from '../util/unknown-values.js';

/** The flags: the simulator's options, and its faults under their own names. */
interface SimFlags extends SmscFaults, ReceiptStyle {
  host: string;
  port: number;
  systemId?: string;
  password?: string;
  receipts: boolean;
  receiptDelayMs: number;
  statsFile?: string;
  submitLog?: string;
  autoReply?: string;
}

function count(v: string): number {
  if (!/^\d{1,9}$/.test(v)) throw new InvalidArgumentError('must be a whole number');
  return Number(v);
}

function oneOf<T extends string>(...values: T[]) {
  return (v: string): T => {
    if (!isOneOf(values, v)) throw new InvalidArgumentError(`must be ${values.join(' or ')}`);
    return v;
  };
}

export function registerSmscSim(program: Command): void {
  const command = program
    .command('smsc-sim')
    .description('run an SMPP 3.4 SMSC for local tests and benchmarks, with faults on demand')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('-p, --port <port>', 'port to listen on', count, 2775)
    .option('--system-id <id>', 'accept only binds with this system_id (and --password)')
    .option('--password <password>', 'the password binds must give with --system-id')
    .option('--no-receipts', 'never send delivery receipts')
    .option('--receipt-delay-ms <ms>', 'delay before a receipt', count, 100)
    .option(
      '--id-base <base>',
      'message ids in submit_sm_resp: hex or dec',
      oneOf('hex', 'dec'),
      'hex',
    )
    .option(
      '--receipt-id-base <base>',
      'receipts quote ids as given (same) or in the other base, zero-padded (other)',
      oneOf('same', 'other'),
      'same',
    )
    .option(
      '--no-receipt-tlvs',
      'receipts carry only the text, no receipted_message_id/message_state',
    )
    .option('--throttle-every <n>', 'answer every Nth submit_sm with ESME_RTHROTTLED', count, 0)
    .option('--ack-delay-ms <ms>', 'delay every submit_sm_resp', count, 0)
    .option('--drop-after <n>', 'drop the connection at the Nth submit_sm (once)', count, 0)
    .option('--fail-every <n>', 'give every Nth accepted message an UNDELIV receipt', count, 0)
    .option('--duplicate-receipts', 'send every receipt twice', false)
    .option('--receipts-before-answer', 'send the receipt before the submit_sm_resp', false)
    .option(
      '--auto-reply <text>',
      'every handset answers each message with this text, to the address it came from (MO)',
    )
    .option('--stats-file <file>', 'keep the JSON stats in this file, rewritten every 250 ms')
    .option('--submit-log <file>', 'write "<epoch ms> <destination>" for every accepted submit_sm');
  command
    .addHelpText(
      'after',
      [
        '',
        'Recipients ending in 0001 get an UNDELIV receipt, 0002 are refused (ESME_RINVDSTADR),',
        '0003 never get a receipt; any other number is delivered (DELIVRD).',
        'With --auto-reply, each handset then answers to the sender: send with SenderId 10690001',
        "(the development account's SMS number) and the reply is that account's.",
        '',
        'Examples:',
        '  wirebird smsc-sim --port 2775',
        '  wirebird smsc-sim --throttle-every 50 --duplicate-receipts',
        '  WIREBIRD_SMSC=smpp://wirebird:secret@127.0.0.1:2775 npm start',
      ].join('\n'),
    )
    .action(runSmscSim);
}

/** Runs the simulator until SIGINT or SIGTERM, printing and filing its stats as it goes. */
async function runSmscSim(f: SimFlags): Promise<void> {
  // Loaded here, not when the CLI starts: the simulator is the smpp package's server.
  const { SmscSim } = await import('../smsc-sim/smsc-sim.js');
  const { SubmitLog, writeStatsFile } = await import('../smsc-sim/bench-files.js');
  const log = f.submitLog === undefined ? undefined : new SubmitLog(f.submitLog);
  const sim = new SmscSim({
    ...(log ? { onSubmit: (to: string, at: number) => log.add(to, at) } : {}),
    host: f.host,
    port: f.port,
    ...(f.systemId === undefined ? {} : { systemId: f.systemId, password: f.password ?? '' }),
    receipts: f.receipts,
    receiptDelayMs: f.receiptDelayMs,
    idBase: f.idBase,
    receiptIdBase: f.receiptIdBase,
    receiptTlvs: f.receiptTlvs,
    ...(f.autoReply === undefined ? {} : { autoReply: f.autoReply }),
    faults: pickFaults(f),
  });
  const port = await sim.start();
  console.log(`SMSC simulator listening on ${f.host}:${port} (Ctrl-C to stop)`);
  const report = setInterval(() => console.log(JSON.stringify(sim.stats)), 10_000);
  const files = () => {
    log?.flush();
    if (f.statsFile !== undefined) writeStatsFile(f.statsFile, sim.stats);
  };
  files();
  const fileTimer = setInterval(files, 250);
  const stop = () => {
    clearInterval(report);
    clearInterval(fileTimer);
    files();
    log?.close();
    console.log(JSON.stringify(sim.stats));
    void sim.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function pickFaults(f: SmscFaults): SmscFaults {
  const { throttleEvery, ackDelayMs, dropAfter, failEvery, duplicateReceipts } = f;
  return {
    throttleEvery,
    ackDelayMs,
    dropAfter,
    failEvery,
    duplicateReceipts,
    receiptsBeforeAnswer: f.receiptsBeforeAnswer,
  };
}
