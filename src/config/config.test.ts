import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError, loadConfig } from './config.js';

const dirs: string[] = [];

/** Writes `content` as a config file in a new temp folder and returns its path. */
function configFile(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'wirebird-config-'));
  dirs.push(dir);
  const file = join(dir, 'wirebird.json');
  writeFileSync(file, content);
  return file;
}

/** Asserts loadConfig throws a ConfigError whose message matches `names`. */
function refused(env: NodeJS.ProcessEnv, names: RegExp, file?: string): void {
  assert.throws(
    () => loadConfig(env, file),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError, `expected a ConfigError, got ${String(e)}`);
      assert.match(e.message, names);
      return true;
    },
  );
}

describe('loadConfig', () => {
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('has the documented defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.templateReview, 'auto');
    assert.equal(c.receiptTimeoutS, 43200);
    assert.equal(c.simDelayMs, 200);
    assert.equal(c.dataDir, resolve('./data'));
    assert.deepEqual(c.apiKeys, []);
    assert.deepEqual(c.bannedWords, []);
    assert.equal(c.adminKey, undefined);
  });

  it('points WhatsApp at the public Graph API with a pinned version unless told otherwise', () => {
    const c = loadConfig({});
    assert.equal(c.whatsapp.apiUrl, 'https://graph.facebook.com/v24.0');
    assert.equal(c.whatsapp.phoneTps, 80);
    assert.equal(c.whatsapp.verifyToken, undefined);
    const env = {
      WIREBIRD_WHATSAPP_API_URL: 'http://127.0.0.1:8090/v24.0/',
      WIREBIRD_WHATSAPP_VERIFY_TOKEN: 'vt',
      WIREBIRD_WHATSAPP_APP_SECRET: 'as',
    };
    const w = loadConfig(env).whatsapp;
    assert.deepEqual(
      [w.apiUrl, w.verifyToken, w.appSecret],
      ['http://127.0.0.1:8090/v24.0', 'vt', 'as'],
    );
    assert.throws(
      () => loadConfig({ WIREBIRD_WHATSAPP_API_URL: 'ftp://x' }),
      (e: Error) => e instanceof ConfigError && /WIREBIRD_WHATSAPP_API_URL/.test(e.message),
    );
  });

  it('reads PORT, HOST, WIREBIRD_DATA_DIR (made absolute) and review settings', () => {
    const c = loadConfig({
      PORT: '9090',
      HOST: '0.0.0.0',
      WIREBIRD_DATA_DIR: 'some/dir',
      WIREBIRD_TEMPLATE_REVIEW: 'manual',
      WIREBIRD_BANNED_WORDS: 'a, b',
      WIREBIRD_ADMIN_KEY: 'x'.repeat(20),
    });
    assert.equal(c.port, 9090);
    assert.equal(c.host, '0.0.0.0');
    assert.ok(isAbsolute(c.dataDir));
    assert.equal(c.dataDir, resolve('some/dir'));
    assert.equal(c.templateReview, 'manual');
    assert.deepEqual(c.bannedWords, ['a', 'b']);
    assert.equal(c.adminKey, 'x'.repeat(20));
  });

  it('reads WIREBIRD_API_KEYS as AccountId:key pairs', () => {
    const c = loadConfig({
      WIREBIRD_API_KEYS: '1:aaaaaaaaaaaaaaaaaaaa,2:bbbbbbbbbbbbbbbbbbbb',
    });
    assert.deepEqual(c.apiKeys, [
      { accountId: 1, key: 'a'.repeat(20) },
      { accountId: 2, key: 'b'.repeat(20) },
    ]);
  });

  it('ignores an empty environment variable', () => {
    assert.equal(loadConfig({ PORT: '', WIREBIRD_TEMPLATE_REVIEW: '' }).port, 8080);
  });

  it('reads a JSON config file, with the environment on top', () => {
    const file = configFile(
      JSON.stringify({ port: 7000, host: '::1', templateReview: 'manual', bannedWords: ['x'] }),
    );
    const fromFile = loadConfig({}, file);
    assert.equal(fromFile.port, 7000);
    assert.equal(fromFile.host, '::1');
    assert.equal(fromFile.templateReview, 'manual');
    assert.deepEqual(fromFile.bannedWords, ['x']);
    assert.equal(fromFile.simDelayMs, 200, 'defaults fill what the file leaves out');

    const both = loadConfig({ PORT: '7001', WIREBIRD_TEMPLATE_REVIEW: 'auto' }, file);
    assert.equal(both.port, 7001);
    assert.equal(both.templateReview, 'auto');
    assert.equal(both.host, '::1');
  });

  it('finds the config file through WIREBIRD_CONFIG', () => {
    const file = configFile(JSON.stringify({ port: 7100 }));
    assert.equal(loadConfig({ WIREBIRD_CONFIG: file }).port, 7100);
  });

  it('refuses PORT=abc and out-of-range ports naming the port', () => {
    refused({ PORT: 'abc' }, /port/i);
    refused({ PORT: '70000' }, /port/i);
    refused({ PORT: '80.5' }, /port/i);
  });

  it('refuses WIREBIRD_TEMPLATE_REVIEW=sometimes naming the setting', () => {
    refused({ WIREBIRD_TEMPLATE_REVIEW: 'sometimes' }, /templateReview|TEMPLATE_REVIEW/);
  });

  it('refuses malformed WIREBIRD_API_KEYS naming the setting', () => {
    const names = /apiKeys|WIREBIRD_API_KEYS/;
    refused({ WIREBIRD_API_KEYS: 'nocolon' }, names);
    refused({ WIREBIRD_API_KEYS: ':' + 'a'.repeat(20) }, names);
    refused({ WIREBIRD_API_KEYS: 'abc:' + 'a'.repeat(20) }, names);
    refused({ WIREBIRD_API_KEYS: '0:' + 'a'.repeat(20) }, names);
    refused({ WIREBIRD_API_KEYS: '1:short' }, names);
  });

  it('does not echo a refused API key in the error message', () => {
    try {
      loadConfig({ WIREBIRD_API_KEYS: '1:secretvalue' });
      assert.fail('expected a ConfigError');
    } catch (e) {
      assert.ok(e instanceof ConfigError);
      assert.ok(!e.message.includes('secretvalue'));
    }
  });

  it('refuses a missing, unreadable or malformed config file naming the file', () => {
    const missingFile = join(tmpdir(), 'wirebird-no-such-config.json');
    refused({}, /wirebird-no-such-config\.json/, missingFile);
    const broken = configFile('{ "port": ');
    refused({}, /config file/, broken);
    if (process.getuid?.() !== 0) {
      const locked = configFile('{}');
      chmodSync(locked, 0o000);
      refused({}, /config file/, locked);
    }
  });

  it('refuses bad values in the config file naming the setting', () => {
    refused({}, /templateReview/, configFile(JSON.stringify({ templateReview: 'sometimes' })));
    refused({}, /port/, configFile(JSON.stringify({ port: 'eighty' })));
  });

  it('refuses a config file that is not a JSON object with a ConfigError', () => {
    for (const content of ['null', '[]', '"text"', '42']) {
      refused({ PORT: '8081' }, /config file|object/, configFile(content));
    }
  });

  it('refuses a blank PORT instead of listening on a random port', () => {
    refused({ PORT: ' ' }, /port/i);
  });

  it('refuses a key it does not know (a typo) in the config file', () => {
    refused({}, /prot|additional/i, configFile(JSON.stringify({ prot: 9000 })));
    refused({}, /dispatch|additional/i, configFile(JSON.stringify({ dispatch: { widnow: 5 } })));
  });

  it('checks the default region and takes it in any case', () => {
    refused({ WIREBIRD_DEFAULT_REGION: 'XX' }, /defaultRegion|WIREBIRD_DEFAULT_REGION/);
    const config = loadConfig({}, configFile(JSON.stringify({ defaultRegion: 'us' })));
    assert.equal(config.defaultRegion, 'US');
  });

  it('selects PostgreSQL by DATABASE_URL or database.url, the variable winning', () => {
    assert.equal(loadConfig({}).database.url, undefined, 'SQLite by default');
    assert.equal(loadConfig({}).database.poolSize, 10);
    const file = configFile(
      JSON.stringify({ database: { url: 'postgres://file@db:5432/wb', poolSize: 4 } }),
    );
    assert.deepEqual(loadConfig({}, file).database, {
      url: 'postgres://file@db:5432/wb',
      poolSize: 4,
    });
    const env = { DATABASE_URL: 'postgresql://env:secret@127.0.0.1/wb' };
    assert.deepEqual(loadConfig(env, file).database, {
      url: 'postgresql://env:secret@127.0.0.1/wb',
      poolSize: 4,
    });
  });

  it('refuses a database url that is not PostgreSQL, never echoing it (it holds a password)', () => {
    for (const url of [
      'mysql://u:hunter2secret@db/wb',
      'hunter2secret',
      'postgres://:hunter2secret@',
    ]) {
      assert.throws(
        () => loadConfig({ DATABASE_URL: url }),
        (e: unknown) => {
          assert.ok(e instanceof ConfigError);
          assert.match(e.message, /DATABASE_URL\) must be a PostgreSQL URL/);
          assert.doesNotMatch(e.message, /hunter2/);
          return true;
        },
      );
    }
    refused({}, /database\/poolSize/, configFile('{"database": {"poolSize": 0}}'));
    refused({}, /database\/host/, configFile('{"database": {"host": "db"}}'));
  });
});

it('WIREBIRD_UCLOUD_KEYS reads AccountId:PublicKey:PrivateKey triples, and refuses other forms', () => {
  const config = loadConfig({
    WIREBIRD_UCLOUD_KEYS:
      '1:wbpk_one_public:private-key-one-0123, 2:wbpk_two_public:private-key-two-0123',
    WIREBIRD_SECRET: 'a-gateway-secret-0123456789',
  });
  assert.deepEqual(config.ucloudKeys, [
    { accountId: 1, publicKey: 'wbpk_one_public', privateKey: 'private-key-one-0123' },
    { accountId: 2, publicKey: 'wbpk_two_public', privateKey: 'private-key-two-0123' },
  ]);
  assert.equal(config.secret, 'a-gateway-secret-0123456789');
  for (const bad of ['1:only-two', '1:a:b:c', 'x:wbpk_one_public:private-key-one-0123']) {
    assert.throws(() => loadConfig({ WIREBIRD_UCLOUD_KEYS: bad }), ConfigError, bad);
  }
});
