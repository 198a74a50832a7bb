import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { checkConfig } from '../src/config/config.js';
import { RetCode } from '../src/domain/errors.js';
import { startGateway, type Gateway } from '../src/gateway/start-gateway.js';

const silent = pino({ level: 'silent' });
const dirs: string[] = [];
const running: Gateway[] = [];

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wirebird-first-start-'));
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string, settings: Record<string, unknown> = {}): Promise<Gateway> {
  const gw = await startGateway(
    // No acceptance threads: what a first start makes is the subject, and each thread costs a
    // second of start-up.
    checkConfig({ port: 0, dataDir, logLevel: 'silent', acceptThreads: 0, ...settings }),
    silent,
  );
  running.push(gw);
  return gw;
}

async function stop(gw: Gateway): Promise<void> {
  running.splice(running.indexOf(gw), 1);
  await gw.stop();
}

/** RetCode of a QueryUSMSTemplate for an unknown id: 18010 once the key is accepted. */
async function queryAs(gw: Gateway, accountId: number, key: string): Promise<number> {
  const res = await fetch(`${gw.url}/api`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ Action: 'QueryUSMSTemplate', AccountId: accountId, TemplateId: ['X'] }),
  });
  return ((await res.json()) as { RetCode: number }).RetCode;
}

async function adminStatus(gw: Gateway, key: string): Promise<number> {
  const res = await fetch(`${gw.url}/admin/templates`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return res.status;
}

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('first start', () => {
  after(async () => {
    for (const gw of running.splice(0)) await gw.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('creates dev account 1 and writes its key to dev-account.key, mode 0600', async () => {
    const dataDir = tempDataDir();
    const gw = await start(dataDir);
    assert.ok(gw.devAccount, 'a first start without keys creates a dev account');
    assert.equal(gw.devAccount.accountId, 1);
    assert.ok(await gw.store.accountExists(1));
    const file = join(dataDir, 'dev-account.key');
    assert.equal(modeOf(file), 0o600);
    assert.equal(readFileSync(file, 'utf8').trim(), `1:${gw.devAccount.key}`);
    // The database and its WAL hold hashes, sealed secrets and messages: its owner's alone too.
    for (const db of ['wirebird.db', 'wirebird.db-wal', 'wirebird.db-shm']) {
      assert.equal(modeOf(join(dataDir, db)), 0o600, db);
    }
    assert.equal(await queryAs(gw, 1, gw.devAccount.key), RetCode.NotFound);
    assert.equal(await queryAs(gw, 2, gw.devAccount.key), RetCode.PermissionDenied);
    await stop(gw);
  });

  it('creates no second dev account on a restart, and the old key still works', async () => {
    const dataDir = tempDataDir();
    const first = await start(dataDir);
    const key = first.devAccount?.key;
    assert.ok(key);
    await stop(first);

    const second = await start(dataDir);
    assert.equal(second.devAccount, undefined);
    assert.equal(await queryAs(second, 1, key), RetCode.NotFound);
    assert.equal(readFileSync(join(dataDir, 'dev-account.key'), 'utf8').trim(), `1:${key}`);
    assert.equal(await second.store.countApiKeys(), 1);
    await stop(second);
  });

  it('creates no dev account when API keys are configured; the configured key works', async () => {
    const dataDir = tempDataDir();
    const key = 'k'.repeat(20);
    const gw = await start(dataDir, { apiKeys: [{ accountId: 7, key }] });
    assert.equal(gw.devAccount, undefined);
    assert.equal(existsSync(join(dataDir, 'dev-account.key')), false);
    assert.equal(await gw.store.accountExists(1), false);
    assert.equal(await queryAs(gw, 7, key), RetCode.NotFound);
    assert.equal(await queryAs(gw, 1, key), RetCode.PermissionDenied);
    await stop(gw);

    // A restart with the same configuration neither duplicates nor loses the key.
    const again = await start(dataDir, { apiKeys: [{ accountId: 7, key }] });
    assert.equal(await again.store.countApiKeys(), 1);
    assert.equal(await queryAs(again, 7, key), RetCode.NotFound);
    await stop(again);
  });

  it('refuses to start when a configured key already belongs to another account', async () => {
    const dataDir = tempDataDir();
    const key = 'm'.repeat(20);
    await stop(await start(dataDir, { apiKeys: [{ accountId: 7, key }] }));
    await assert.rejects(
      start(dataDir, { apiKeys: [{ accountId: 8, key }] }),
      /AccountId 8.*AccountId 7/,
    );
  });

  it('writes the admin key to admin.key, mode 0600, and keeps it across restarts', async () => {
    const dataDir = tempDataDir();
    const gw = await start(dataDir);
    const file = join(dataDir, 'admin.key');
    assert.equal(modeOf(file), 0o600);
    assert.equal(readFileSync(file, 'utf8').trim(), gw.adminKey);
    assert.equal(await adminStatus(gw, gw.adminKey), 200);
    assert.equal(await adminStatus(gw, gw.devAccount?.key ?? ''), 401);
    await stop(gw);

    const again = await start(dataDir);
    assert.equal(again.adminKey, gw.adminKey);
    assert.equal(await adminStatus(again, gw.adminKey), 200);
    await stop(again);
  });

  it('uses a configured admin key instead of a generated one', async () => {
    const dataDir = tempDataDir();
    const adminKey = 'a'.repeat(24);
    const gw = await start(dataDir, { adminKey });
    assert.equal(gw.adminKey, adminKey);
    assert.equal(await adminStatus(gw, adminKey), 200);
    assert.equal(await adminStatus(gw, 'b'.repeat(24)), 401);
    assert.equal(existsSync(join(dataDir, 'admin.key')), false, 'no generated key to leak');
    await stop(gw);
  });

  it('prefers a configured admin key over an admin.key file from an earlier start', async () => {
    const dataDir = tempDataDir();
    const first = await start(dataDir);
    const generated = first.adminKey;
    await stop(first);
    const adminKey = 'c'.repeat(24);
    const gw = await start(dataDir, { adminKey });
    assert.equal(await adminStatus(gw, adminKey), 200);
    assert.equal(await adminStatus(gw, generated), 401);
    await stop(gw);
  });
});
