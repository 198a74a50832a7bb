import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { normalizePhone } from '../domain/phones/phones.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config.js';
import { openStore } from '../store/open-store.js';
import { readRecipients, storeSms, type SmsIntake } from './accept-sms.js';

async function intakeOn(announced: string[][]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-accept-'));
  const store = await openStore(loadConfig({ WIREBIRD_DATA_DIR: dataDir }));
  after(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await store.ensureAccount(1, 0);
  await store.setAccountRegion(1, 'US');
  const intake: SmsIntake = {
    store,
    clock: { now: () => 1_000 },
    routing: { smsRoute: () => 'sim' },
    gatewayRegion: 'CN',
    maxSegments: 10,
    maxScheduleDays: 35,
    newSessionNo: () => 'S-1',
    accepted: (routes, held) => announced.push([...routes, ...(held ? ['held'] : [])]),
    refused: () => undefined,
  };
  return { intake, store };
}

const sms = (e164: string) => ({
  phone: e164,
  e164,
  route: 'sim',
  templateId: '',
  params: [],
  senderId: '',
  extendCode: '',
  userId: '',
  text: 'hello',
  costCount: 1,
  country: 'US',
});

test("recipients are read in the account's region and opted-out numbers are found", async () => {
  const { intake, store } = await intakeOn([]);
  await store.addOptOuts(
    [{ accountId: 1, phone: '+14155550102', source: 'api', keyword: '', createdAt: 0 }],
    0,
  );
  const got = await readRecipients(intake, 1, ['4155550101', '4155550102', 'x'], (p, region) =>
    normalizePhone(p, region),
  );
  assert.equal(got.region, 'US');
  assert.deepEqual(
    got.read.map((r) => (r.phone.ok ? r.phone.e164 : 'unreadable')),
    ['+14155550101', '+14155550102', 'unreadable'],
  );
  assert.deepEqual([...got.optedOut], ['+14155550102']);
});

test('a stored session is announced once; a twin that lost the key race is not', async () => {
  const announced: string[][] = [];
  const { intake, store } = await intakeOn(announced);
  const record = { accountId: 1, key: 'k', requestHash: 'h', response: '{}', createdAt: 1_000 };
  const session = { accountId: 1, sessionNo: 'S-1', messages: [sms('+14155550101')] };
  assert.deepEqual(await storeSms(intake, session, record), { refused: [] });
  const twin = { ...session, sessionNo: 'S-2' };
  assert.deepEqual(await storeSms(intake, twin, record), { raced: record });
  assert.deepEqual(announced, [['sim']]);
  // One message stored, queued for dispatch: the twin stored nothing.
  assert.deepEqual(await store.countByState(), { queued: 1 });
});

test('a session held for SendAt is announced as held: the dispatcher is not woken', async () => {
  const announced: string[][] = [];
  const { intake } = await intakeOn(announced);
  const session = { accountId: 1, sessionNo: 'S-1', messages: [sms('+14155550101')] };
  await storeSms(intake, { ...session, dueAt: 3_600_000 });
  await storeSms(intake, { ...session, sessionNo: 'S-2' });
  assert.deepEqual(announced, [['sim', 'held'], ['sim']]);
});
