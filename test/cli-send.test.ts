import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, runCli } from './helpers/cli.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  approvedTemplate,
  cn,
  finalReceipts,
  storedMessages,
  templateAt,
} from './helpers/sending.js';

interface Summary {
  rows: number;
  accepted: number;
  failed: number;
  requests: number;
  resumedChunks: number;
  sessionNos: string[];
  resumedRows: number;
  failures: { phone: string; reason: string; line: number }[];
}

/** A CSV of `rows` numbers; every row in `bad` has a number that cannot be valid. */
function writeCsv(path: string, rows: number, bad: ReadonlySet<number> = new Set()): void {
  const lines = ['phone,name,code'];
  for (let i = 0; i < rows; i++) {
    const phone = bad.has(i) ? `not-a-number-${i}` : cn(10_000_000 + i);
    lines.push(`${phone},"Smith, ""Ann"" ${i}",${i}`);
  }
  writeFileSync(path, lines.join('\n') + '\n');
}

const progressLines = (csv: string) =>
  !existsSync(`${csv}.progress`)
    ? []
    : readFileSync(`${csv}.progress`, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"chunk"'));

describe('wirebird send and receipts', () => {
  let gw: TestGateway;
  let tpl: string;
  let dir: string;
  before(async () => {
    // A slow route: the subject is what `wirebird send` hands the API, and dispatching the 90,000
    // messages of the tests below would double this file's CPU. The tests that wait for a
    // receipt or count the queue come first, while it is short.
    // A small window too: a stop sends what is claimed before it ends.
    const dispatch = { routeTps: 20, batchSize: 10, window: 10 };
    gw = await startTestGateway({ simDelayMs: 0, dispatch });
    tpl = await approvedTemplate(gw, 'Dear {1}, your code is {2}');
    dir = mkdtempSync(join(tmpdir(), 'wirebird-cli-'));
  });
  after(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints receipts as a table or as JSON', async () => {
    const csv = join(dir, 'receipts.csv');
    // cn(3) ends in 0003: the simulator sends no report, so it waits.
    writeFileSync(csv, `phone,name,code\n${cn(1)},Bo,1\n${cn(5)},Al,2\n${cn(3)},Cy,3\n`);
    const sent = JSON.parse(
      (await cli(gw, ['send', '-t', tpl, '--csv', csv, '--json'])).stdout,
    ) as Summary;
    const session = sent.sessionNos[0] as string;
    await finalReceipts(gw, session, 2);
    const table = await cli(gw, ['receipts', session]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(
      table.stdout,
      /^SessionNo\s+Phone\s+Result\s+Code\s+Time \(UTC\)\s+Cost\s+UserId$/m,
    );
    assert.match(table.stdout, new RegExp(`^${session}\\s+\\${cn(1)}\\s+Fail\\s+UNDELIV\\s`, 'm'));
    assert.match(
      table.stdout,
      new RegExp(`^${session}\\s+\\${cn(5)}\\s+Success\\s+DELIVRD\\s`, 'm'),
    );
    assert.match(table.stdout, new RegExp(`^${session}: 2 receipts, 1 still waiting$`, 'm'));
    const json = await cli(gw, ['receipts', session, 'no-such-session', '--json']);
    assert.equal(json.code, 1);
    const data = JSON.parse(json.stdout) as {
      SessionNo: string;
      ReceiptSet: unknown[];
      Waiting: number;
    }[];
    assert.deepEqual(
      data.map((d) => [d.SessionNo, d.ReceiptSet.length, d.Waiting]),
      [[session, 2, 1]],
    );
    assert.match(json.stderr, /^not found: no-such-session$/m);
  });

  it('holds the rows until --at, with --validity; refuses a bad time or duration', async () => {
    const csv = join(dir, 'later.csv');
    writeCsv(csv, 2);
    const held = (await gw.store.countByState()).queued ?? 0;
    const at = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, '+00:00');
    const run = await cli(gw, ['send', '-t', tpl, '--csv', csv, '--at', at, '--validity', '2h']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await gw.store.countByState()).queued, held + 2, 'held until --at');
    const changed = await cli(gw, ['send', '-t', tpl, '--csv', csv, '--at', '1900000000']);
    assert.match(changed.stderr, /belongs to another run \(--at, --validity differ\)/);
    const bad = await cli(gw, ['send', '-t', tpl, '--csv', csv, '--at', 'tomorrow']);
    assert.match(bad.stderr, /^wirebird: --at tomorrow: give a date and time with its zone/m);
    const long = await cli(gw, ['send', '-t', tpl, '--csv', csv, '--validity', '5 min']);
    assert.match(long.stderr, /^wirebird: --validity 5 min: give a duration such as 300/m);
  });

  it('sends a 50,000-row CSV in requests of 1000 and sums up what was accepted', async () => {
    const csv = join(dir, 'fifty-thousand.csv');
    const bad = new Set([0, 999, 1000, 25_000, 49_999]);
    writeCsv(csv, 50_000, bad);
    const before = await storedMessages(gw);
    const run = await cli(gw, ['send', '--template', tpl, '--csv', csv, '--json']);
    assert.equal(run.code, 2, `some rows failed: exit code 2\n${run.stderr}`);
    const s = JSON.parse(run.stdout) as Summary;
    assert.deepEqual(
      [s.rows, s.accepted, s.failed, s.requests, s.resumedChunks],
      [50_000, 49_995, 5, 50, 0],
    );
    assert.equal(new Set(s.sessionNos).size, 50);
    assert.deepEqual(
      s.failures.map((f) => f.phone).sort(),
      [...bad].map((i) => `not-a-number-${i}`).sort(),
    );
    assert.ok(
      s.failures.every((f) => /Phone/.test(f.reason)),
      JSON.stringify(s.failures[0]),
    );
    // Each failure names its CSV line: the header is line 1, row i is line i + 2.
    assert.deepEqual(
      s.failures.map((f) => [f.phone, f.line]),
      [...bad].map((i) => [`not-a-number-${i}`, i + 2]),
    );
    assert.equal((await storedMessages(gw)) - before, 49_995);
    // The progress line ends at 100% with the final counts.
    assert.match(run.stderr, /50000\/50000 \(100%\)\s+accepted 49995\s+failed 5\s+\d+\/s\s+ETA/);
    // Quoted fields with commas and quotes reach the template intact.
    const [first] = s.sessionNos;
    const view = await gw.store.sessionView(first as string, 1, 1);
    assert.equal(view?.messages[0]?.text, 'Dear Smith, "Ann" 1, your code is 1');
  });

  it('resumes after being killed, sending no number twice', async () => {
    const csv = join(dir, 'resume.csv');
    writeCsv(csv, 20_000);
    const before = await storedMessages(gw);
    const args = ['send', '-t', tpl, '--csv', csv, '--chunk-size', '100', '--json'];
    const first = runCli(gw, args);
    await eventually(
      async () => (progressLines(csv).length >= 3 ? true : undefined),
      'three chunks recorded',
    );
    first.child.kill('SIGKILL');
    const killed = await first.done;
    assert.equal(killed.code, null, 'the first run was interrupted');
    const recorded = progressLines(csv).length;
    assert.ok(recorded < 200);

    const rerun = await cli(gw, args);
    assert.equal(rerun.code, 0, rerun.stderr);
    const s = JSON.parse(rerun.stdout) as Summary;
    assert.deepEqual([s.rows, s.accepted, s.failed], [20_000, 20_000, 0]);
    assert.equal(s.resumedChunks, recorded);
    assert.equal(s.resumedRows, recorded * 100);
    assert.equal(s.requests, 200 - recorded);
    assert.equal(new Set(s.sessionNos).size, 200);
    assert.equal((await storedMessages(gw)) - before, 20_000);

    // A chunk answered but not recorded (killed in between) is resent under its first key.
    const file = readFileSync(`${csv}.progress`, 'utf8').trimEnd().split('\n');
    writeFileSync(`${csv}.progress`, file.slice(0, -1).join('\n') + '\n');
    const again = await cli(gw, args);
    assert.equal(again.code, 0, again.stderr);
    const a = JSON.parse(again.stdout) as Summary;
    assert.deepEqual([a.requests, a.accepted], [1, 20_000]);
    assert.deepEqual(a.sessionNos, s.sessionNos);
    assert.equal((await storedMessages(gw)) - before, 20_000);
  });

  it('names the address it tried when no gateway listens there, not a flag', async () => {
    const csv = join(dir, 'nowhere.csv');
    writeCsv(csv, 1);
    const free = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => free.once('listening', r));
    const { port } = free.address() as { port: number };
    await new Promise((r) => free.close(r));
    const url = `http://127.0.0.1:${port}`;
    const run = await runCli(gw, ['send', '--template', tpl, '--csv', csv, '--url', url]).done;
    assert.notEqual(run.code, 0);
    assert.match(
      run.stderr,
      new RegExp(
        `no gateway at ${url.replace(/\./g, '\\.')} \\(ECONNREFUSED\\) after 6 attempts: .*set --url or PORT`,
      ),
    );
    assert.doesNotMatch(run.stderr, /--template/);
  });

  it('exits 3 when no row was accepted', async () => {
    const csv = join(dir, 'all-bad.csv');
    writeCsv(csv, 3, new Set([0, 1, 2]));
    const run = await cli(gw, ['send', '-t', tpl, '--csv', csv]);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stdout, /^3 rows: 0 accepted, 3 failed$/m);
  });

  it('refuses a changed CSV, an unknown column and a bad chunk size with one line each', async () => {
    const csv = join(dir, 'small.csv');
    writeCsv(csv, 3);
    const done = await cli(gw, ['send', '-t', tpl, '--csv', csv]);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /^3 rows: 3 accepted, 0 failed$/m);
    writeCsv(csv, 4);
    const changed = await cli(gw, ['send', '-t', tpl, '--csv', csv]);
    assert.equal(changed.code, 1);
    assert.match(
      changed.stderr,
      /^wirebird: .*small\.csv\.progress belongs to another run \(csvBytes/m,
    );
    rmSync(`${csv}.progress`);
    const column = await cli(gw, ['send', '-t', tpl, '--csv', csv, '-p', 'name', 'nope']);
    assert.equal(column.code, 1);
    assert.match(
      column.stderr,
      /--params-column: the CSV has no column "nope" \(its columns: phone, name, code\)/,
    );
    const size = await cli(gw, ['send', '-t', tpl, '--csv', csv, '--chunk-size', '1001']);
    assert.match(size.stderr, /^wirebird: --chunk-size must be 1 to 1000$/m);
    const missing = await cli(gw, ['send', '-t', tpl, '--csv', join(dir, 'none.csv')]);
    assert.match(missing.stderr, /^wirebird: --csv: .*none\.csv does not exist$/m);
    const unknown = await cli(gw, ['send', '-t', 'UTANOSUCHTEMPLATE', '--csv', csv]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^wirebird: --template: .*UTANOSUCHTEMPLATE.*not found/m);
    assert.equal(progressLines(csv).length, 0, 'nothing was sent');
  });

  it('checks the parameter columns against the template before sending a row', async () => {
    const csv = join(dir, 'columns.csv');
    writeFileSync(csv, `phone,name,code,extra\n${cn(7)},Bo,1,x\n`);
    const before = await storedMessages(gw);
    const extra = await cli(gw, ['send', '-t', tpl, '--csv', csv]);
    assert.equal(extra.code, 1);
    assert.match(
      extra.stderr,
      /^wirebird: --params-column: template \S+ takes 2 parameters but the CSV gives 3 \(name, code, extra\)/m,
    );
    const named = await cli(gw, ['send', '-t', tpl, '--csv', csv, '-p', 'name', 'code']);
    assert.equal(named.code, 0, named.stderr);
    const pending = await templateAt(gw, 0, 'Hi {1}');
    const unapproved = await cli(gw, ['send', '-t', pending, '--csv', csv, '-p', 'name']);
    assert.match(unapproved.stderr, /^wirebird: --template: \S+ is not approved \(Status 0\)/m);
    assert.equal((await storedMessages(gw)) - before, 1);
  });

  it('names the CSV line of each failed row, and the rate of a resumed run is its own', async () => {
    const csv = join(dir, 'lines.csv');
    // A quoted field over two lines moves the rows after it down one line more.
    const rows = [`${cn(8)},"two\nlines",1`, `,Al,2`, `12,Bo,3`, `${cn(9)},Cy,4`];
    writeFileSync(csv, `phone,name,code\n${rows.join('\n')}\n`);
    const run = await cli(gw, ['send', '-t', tpl, '--csv', csv]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stdout, /^ {2}line 4, "": Phone is empty$/m);
    assert.match(run.stdout, /^ {2}line 5, "12": Phone is too short/m);
    // A run of a moment is timed in tenths of a second, not rounded up to one.
    assert.match(run.stdout, /^1 request \(4 rows\) in \d\.\ds \(\d+ rows\/s\)$/m);
    const again = await cli(gw, ['send', '-t', tpl, '--csv', csv]);
    assert.match(
      again.stdout,
      /^0 requests \(0 rows\) in .* \(0 rows\/s\); 1 request \(4 rows\) done by an earlier run$/m,
    );
  });
});
