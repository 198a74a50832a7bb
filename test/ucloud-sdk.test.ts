import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';

/**
 * The official UCloud Python SDK, unchanged, against a real gateway: test/ucloud/sdk_flow.py
 * runs a whole USMS flow and prints what it saw. Skipped with the reason when python3, requests
 * or the SDK's copy is missing; WIREBIRD_REQUIRE_UCLOUD_SDK=1 (CI) turns a skip into a failure.
 */
const SDK = resolve(
  process.env.WIREBIRD_UCLOUD_SDK ?? resolve('..', 'shared', 'ucloud-sdk-python3'),
);
const FLOW = resolve('test', 'ucloud', 'sdk_flow.py');

function missing(): string | undefined {
  if (!existsSync(resolve(SDK, 'ucloud', 'services', 'usms', 'client.py'))) {
    return `the UCloud Python SDK is not at ${SDK} (set WIREBIRD_UCLOUD_SDK)`;
  }
  const probe = spawnSync('python3', ['-c', 'import requests'], { encoding: 'utf8' });
  if (probe.error) return 'python3 is not installed';
  if (probe.status !== 0) return 'python3 has no requests module (pip install requests)';
  return undefined;
}

const absent = missing();
if (absent && process.env.WIREBIRD_REQUIRE_UCLOUD_SDK === '1') {
  throw new Error(`the UCloud SDK interop test must run here, but ${absent}`);
}

// What the Python flow printed: JSON read field by field, as the assertions below name them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function python(
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('python3', args, { timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

const PAIR = {
  publicKey: 'wbpk_sdk_interop_test',
  privateKey: 'sdk-interop-private-key-0123456789',
};

describe('the official UCloud Python SDK, unchanged', { skip: absent }, () => {
  let gw: TestGateway;
  let seen: Record<string, Json>;

  before(async () => {
    gw = await startTestGateway({
      templateReview: 'auto',
      simDelayMs: 5,
      ucloudKeys: [{ accountId: 1, ...PAIR }],
    });
    // Not spawnSync: the gateway answers the SDK from this very process.
    const run = await python([FLOW, SDK, gw.url, PAIR.publicKey, PAIR.privateKey]);
    assert.equal(run.status, 0, `sdk_flow.py failed:\n${run.stderr}`);
    seen = JSON.parse(run.stdout) as Record<string, Json>;
  });
  after(() => gw.close());

  it('creates a signature and templates, reviewed to Status 2 and read back', () => {
    assert.equal(seen.signatureStatus, 2);
    assert.equal(seen.templateStatus, 2);
    assert.equal(seen.promoUnsubscribe, '拒收请回复R');
  });

  it('raises RetCodeException with the RetCode for a refused call', () => {
    assert.equal(seen.promotionWithoutUnsubscribe, 18001);
    assert.equal(seen.unknownSignature, 18046);
    assert.equal(seen.qualification, 162);
    assert.equal(seen.templateAfterDelete, 18010);
    assert.equal(seen.signatureAfterDelete, 18010);
    assert.equal(seen.wrongPrivateKey, 172);
  });

  it('sends with SendUSMSMessage and SendBatchUSMSMessage, stored with the signature as sender', async () => {
    assert.equal(seen.single.UserId, 'u-1');
    assert.equal(seen.batch.SuccessCount, 2);
    assert.deepEqual(seen.batch.FailContent, []);
    const view = await gw.store.sessionView(seen.batch.SessionNo, 1, 10);
    assert.equal(view?.messages.length, 2);
    const found = await gw.store.searchInbox({ limit: 10, phone: '+8613800000013' });
    assert.equal(found[0]?.from, 'Wirebird');
    assert.equal(found[0].body, 'Order A-2 ships on Tuesday');
  });

  it('reads every receipt back through the SDK', () => {
    const byPhone = new Map<string, Json>(
      seen.receipts.flatMap((s: { ReceiptSet: { Phone: string }[] }) =>
        s.ReceiptSet.map((r) => [r.Phone, r]),
      ),
    );
    assert.equal(byPhone.get('(86)13800000001').ReceiptResult, 'Fail');
    assert.equal(byPhone.get('+8613800000002').ReceiptResult, 'SubmitFail');
    assert.equal(byPhone.get('+8613800000013').ReceiptResult, 'Success');
    assert.equal(byPhone.get('+442079460013').ReceiptResult, 'Success');
  });

  it('counts the sends per day and country, domestic apart from international', () => {
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(seen.domestic.Total, 1);
    assert.deepEqual(
      { ...seen.domestic.Data[0], SuccessRate: undefined },
      {
        SendDate: today,
        BrevityCode: 'CN',
        Count: 3,
        CostCount: 3,
        SuccessCount: 1,
        SuccessCostCount: 1,
        FailedCount: 1,
        FailedCostCount: 1,
        SubmitFailedCount: 1,
        SubmitFailedCostCount: 1,
        UnknownCount: 0,
        UnknownCostCount: 0,
        SuccessRate: undefined,
      },
    );
    assert.equal(seen.international.Data[0].BrevityCode, 'GB');
    assert.equal(seen.international.StatisticsData.SendCount, 1);
  });

  it("keeps the uploaded file and the signature's file in the media store", async () => {
    const file = await gw.store.getMediaInfo(1, seen.FileId);
    assert.equal(file?.mimeType, 'application/pdf');
    assert.equal(file.fileName, 'licence.pdf');
    assert.equal(file.size, Buffer.byteLength('%PDF-1.4 business licence'));
    assert.deepEqual(await gw.store.getSignatures(1, [seen.SigId]), [], 'deleted by the flow');
  });
});
