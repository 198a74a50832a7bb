import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { newWebhookSecret, webhookHeaders } from '../src/outbox/signing.js';

/** The docs' verification snippets, run against what the gateway's signing code makes. */
const doc = readFileSync(new URL('../../docs/events.md', import.meta.url), 'utf8');
const block = (lang: string) => {
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(doc);
  assert.ok(m, `docs/events.md has a ${lang} block`);
  return m[1] as string;
};

function signed(secrets: string[]) {
  const body = JSON.stringify({
    type: 'webhook.test',
    timestamp: new Date().toISOString(),
    data: { SchemaVersion: 1 },
  });
  const headers = webhookHeaders(secrets, {
    id: 'evt_42',
    timestamp: Math.floor(Date.now() / 1000),
    body,
  });
  return { body, headers };
}

test('the Node snippet verifies a signed event and refuses a tampered one', async () => {
  // Beside dist/ so that `standardwebhooks` resolves from the project's node_modules.
  const file = new URL(`./doc-verify-${process.pid}.mjs`, import.meta.url);
  writeFileSync(file, block('js'));
  try {
    const { verify } = (await import(file.href)) as {
      verify: (s: string, b: string, h: Record<string, string>) => unknown;
    };
    const secret = newWebhookSecret();
    const { body, headers } = signed([secret, newWebhookSecret()]);
    assert.deepEqual(verify(secret, body, headers), JSON.parse(body));
    assert.throws(() => verify(secret, body.replace('webhook.test', 'webhook.tset'), headers));
  } finally {
    rmSync(file, { force: true });
  }
});

test('the Python snippet verifies a signed event and refuses a tampered one', (t) => {
  const python = spawnSync('python3', ['--version']);
  if (python.status !== 0) {
    t.skip('python3 is not installed');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'wirebird-doc-py-'));
  try {
    const script = join(dir, 'verify.py');
    writeFileSync(
      script,
      `${block('python')}\nimport json, sys\ncase = json.load(sys.stdin)\nprint(verify(case["secret"], case["body"].encode(), case["headers"]))\n`,
    );
    const secret = newWebhookSecret();
    const { body, headers } = signed([newWebhookSecret(), secret]);
    const run = (b: string) =>
      execFileSync('python3', [script], { input: JSON.stringify({ secret, body: b, headers }) })
        .toString()
        .trim();
    assert.equal(run(body), 'True');
    assert.equal(run(body + ' '), 'False');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the Go snippet verifies a signed event and refuses a tampered one', (t) => {
  const go = spawnSync('go', ['version']);
  if (go.status !== 0) {
    assert.notEqual(
      process.env.WIREBIRD_REQUIRE_GO,
      '1',
      'WIREBIRD_REQUIRE_GO=1 but go is not installed',
    );
    t.skip('go is not installed (apt-get install golang-go to run this)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'wirebird-doc-go-'));
  try {
    writeFileSync(join(dir, 'go.mod'), 'module webhooks\n\ngo 1.19\n');
    writeFileSync(join(dir, 'verify.go'), block('go'));
    const secret = newWebhookSecret();
    const { body, headers } = signed([secret]);
    const h = (n: string) => JSON.stringify(headers[n]);
    writeFileSync(
      join(dir, 'verify_test.go'),
      `package webhooks\nimport "testing"\nfunc TestVerify(t *testing.T) {\n` +
        `  body := ${JSON.stringify(body)}\n` +
        `  if !Verify(${JSON.stringify(secret)}, []byte(body), ${h('webhook-id')}, ${h('webhook-timestamp')}, ${h('webhook-signature')}) { t.Fatal("refused a good one") }\n` +
        `  if Verify(${JSON.stringify(secret)}, []byte(body+" "), ${h('webhook-id')}, ${h('webhook-timestamp')}, ${h('webhook-signature')}) { t.Fatal("took a tampered one") }\n}\n`,
    );
    const run = spawnSync('go', ['test', './...'], {
      cwd: dir,
      env: { ...process.env, GOFLAGS: '-mod=mod', GOCACHE: join(dir, 'cache') },
    });
    assert.equal(run.status, 0, run.stdout.toString() + run.stderr.toString());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
