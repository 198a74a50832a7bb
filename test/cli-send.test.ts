import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, runCli } from './helpers/cli.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { approvedTemplate, cn, finalReceipts, storedMessages } from './helpers/sending.js';

interface Summary {
  rows: number;
  accepted: number;
  failed: number;
  requests: number;
  resumedChunks: number;
  sessionNos: string[];
  failures: { phone: string; reason: string }[];
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
    gw = await startTestGateway({ simDelayMs: 0 });
    tpl = await approvedTemplate(gw, 'Dear {1}, your code is {2}');
    dir = mkdtempSync(join(tmpdir(), 'wirebird-cli-'));
  });
  after(async () => {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
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
    const unapproved = await cli(gw, ['send', '-t', 'UTANOSUCHTEMPLATE', '--csv', csv]);
    assert.equal(unapproved.code, 1);
    assert.match(
      unapproved.stderr,
      /^wirebird: the gateway refused every number: .*UTANOSUCHTEMPLATE/m,
    );
  });

  it('prints receipts as a table or as JSON', async () => {
    const csv = join(dir, 'receipts.csv');
    writeFileSync(csv, `phone,name,code\n${cn(1)},Bo,1\n${cn(5)},Al,2\n`);
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
    const json = await cli(gw, ['receipts', session, 'no-such-session', '--json']);
    assert.equal(json.code, 1);
    const data = JSON.parse(json.stdout) as { SessionNo: string; ReceiptSet: unknown[] }[];
    assert.deepEqual(
      data.map((d) => [d.SessionNo, d.ReceiptSet.length]),
      [[session, 2]],
    );
    assert.match(json.stderr, /^not found: no-such-session$/m);
  });
});
