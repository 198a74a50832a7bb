/**
 * The UCloud SDKs' wire form against the JSON API (issue 18): SendBatchUSMSMessage of the same
 * 1000 numbers a request, once as JSON with a Bearer key and once as the SDKs send it (form
 * body, base64 TaskContent, key-pair signature), alternating rounds on one gateway.
 */
import { ucloudSignature } from '../src/api/ucloud/signature.js';
import { paramsFor } from './api.js';
import { runLoad, type LoadResult } from './load.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { CpuWindow } from './proc.js';
import { gatewayFigures, makeBodies, withBench, type Bench } from './session.js';
import { fmt, table } from './stats.js';

interface Round {
  jsonPerS: number;
  formPerS: number;
  jsonCpuUs: number;
  formCpuUs: number;
  failed: number;
  firstError: string | undefined;
}

export interface UcloudFigures {
  rounds: Round[];
  medianJsonPerS: number;
  medianFormPerS: number;
  ratio: number;
  peakRssMb: number;
}

const ROUNDS = 3;

/** A SendBatchUSMSMessage as the Python SDK encodes and signs it. */
function formBody(b: Bench, pair: { publicKey: string; privateKey: string }, phones: string[]) {
  const task = [
    {
      TemplateId: b.templateId,
      Target: phones.map((Phone) => ({
        Phone,
        TemplateParams: paramsFor(Number(Phone.slice(-7))),
      })),
    },
  ];
  const params: Record<string, string> = {
    Action: 'SendBatchUSMSMessage',
    ProjectId: 'org-bench',
    Region: 'cn-bj2',
    TaskContent: Buffer.from(JSON.stringify(task)).toString('base64'),
    PublicKey: pair.publicKey,
  };
  params.Signature = ucloudSignature(params, pair.privateKey);
  return new URLSearchParams(params).toString();
}

async function measured(b: Bench, load: () => Promise<LoadResult>) {
  const cpu = CpuWindow.start(b.gw.pid);
  const r = await load();
  const used = cpu.end();
  const perS = r.accepted / ((r.endMs - r.startMs) / 1000);
  return { r, perS, cpuUs: r.accepted > 0 ? (used.gatewayS * 1e6) / r.accepted : NaN };
}

export async function measureUcloud(
  o: Options,
  dataDir: string,
  phones: PhoneSequence,
): Promise<UcloudFigures> {
  const { value, ended } = await withBench(o, dataDir, 'ucloud', async (b) => {
    const created = await b.api.admin(`/admin/accounts/${b.gw.accountId}/ucloud-keys`);
    const pair = {
      publicKey: String(created.json.PublicKey),
      privateKey: String(created.json.PrivateKey),
    };
    const post = (body: string) => b.api.postForm('/api', body);
    const rounds: Round[] = [];
    await runLoad(b.api, makeBodies(b, phones, o.warmup, o.batch), o.clients, o.timeLimitS * 1000);
    const warmForms = Array.from({ length: o.warmup }, () =>
      formBody(b, pair, phones.take(o.batch)),
    );
    await runLoad({ call: post }, warmForms, o.clients, o.timeLimitS * 1000);
    for (let i = 0; i < ROUNDS; i++) {
      const limit = o.timeLimitS * 1000;
      const json = await measured(b, () =>
        runLoad(b.api, makeBodies(b, phones, o.requests, o.batch), o.clients, limit),
      );
      // Encoded and signed before the clock starts, as the JSON bodies are serialised before.
      const forms = Array.from({ length: o.requests }, () =>
        formBody(b, pair, phones.take(o.batch)),
      );
      const form = await measured(b, () => runLoad({ call: post }, forms, o.clients, limit));
      rounds.push({
        jsonPerS: json.perS,
        formPerS: form.perS,
        jsonCpuUs: json.cpuUs,
        formCpuUs: form.cpuUs,
        failed: json.r.failed + form.r.failed,
        firstError: json.r.firstError ?? form.r.firstError,
      });
    }
    return rounds;
  });
  const median = (xs: number[]) =>
    [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const medianJsonPerS = median(value.map((r) => r.jsonPerS));
  const medianFormPerS = median(value.map((r) => r.formPerS));
  return {
    rounds: value,
    medianJsonPerS,
    medianFormPerS,
    ratio: medianFormPerS / medianJsonPerS,
    peakRssMb: gatewayFigures(ended).peakRssMb,
  };
}

export function ucloudTable(f: UcloudFigures): string {
  const rows: [string, string][] = f.rounds.map((r, i) => [
    `round ${i + 1}: JSON / SDK form accepted per second (CPU per message)`,
    `${fmt.int(r.jsonPerS)} (${fmt.us(r.jsonCpuUs)}) / ${fmt.int(r.formPerS)} (${fmt.us(r.formCpuUs)})` +
      (r.failed ? `, ${r.failed} failed (first: ${r.firstError})` : ''),
  ]);
  rows.push(
    ['median JSON / SDK form', `${fmt.int(f.medianJsonPerS)} / ${fmt.int(f.medianFormPerS)}`],
    ['**SDK form as a share of JSON**', `**${(f.ratio * 100).toFixed(0)} %** (target ≥ 80 %)`],
    ['gateway peak RSS', fmt.mb(f.peakRssMb)],
  );
  return table(rows);
}
