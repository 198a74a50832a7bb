import { randomUUID } from 'node:crypto';
import type { BatchInfo } from '../../domain/batches/batch.js';
import { CliError } from '../cli-error.js';
import { WirebirdApiError, type WirebirdClient } from '@wirebird/client';
import { cliErrorOf } from '../client/gateway-client.js';
import { countRows, csvHeader, targetChunks, type Chunk, type ColumnPlan } from './csv-targets.js';
import { paramColumns, templateParamCount } from './template-check.js';
import { ProgressBar, type Tally } from './progress-bar.js';
import { ProgressFile, type ChunkRecord, type Failure } from './progress-file.js';

export interface SendPlan {
  csv: string;
  templateId: string;
  senderId: string;
  columns: ColumnPlan;
  chunkSize: number;
  /** --at: Unix seconds; --validity: seconds. */
  sendAt?: number;
  validityS?: number;
}

export interface SendSummary extends Tally {
  requests: number;
  /** Chunks done by an earlier, interrupted run and not sent again, and their rows. */
  resumedChunks: number;
  resumedRows: number;
  seconds: number;
  sessionNos: string[];
  failures: Failure[];
  progressFile: string;
}

/** NothingAccepted: the request was fine, every number in it failed (FailContent says why). */
const NOTHING_ACCEPTED = 18046;

/**
 * Sends a CSV in chunks of `chunkSize` numbers, one SendBatchUSMSMessage each, recording every
 * answered chunk in the progress file before the next: a rerun after an interruption skips what
 * was recorded and resends an unrecorded chunk under its first Idempotency-Key, so no chunk is
 * accepted twice.
 */
export async function sendCsv(
  plan: SendPlan,
  client: WirebirdClient,
  progress: NodeJS.WriteStream,
): Promise<SendSummary> {
  const started = Date.now();
  const total = await countRows(plan.csv);
  const paramCount = await templateParamCount(client, plan.templateId);
  const params = paramColumns(plan.templateId, paramCount, await csvHeader(plan.csv), plan.columns);
  const columns = { ...plan.columns, params };
  const file = ProgressFile.open(
    plan.csv,
    {
      templateId: plan.templateId,
      senderId: plan.senderId,
      params: plan.columns.params ?? null,
      phoneColumn: plan.columns.phone,
      chunkSize: plan.chunkSize,
      sendAt: plan.sendAt ?? null,
      validityS: plan.validityS ?? null,
    },
    randomUUID,
  );
  const tally: Tally = { rows: 0, accepted: 0, failed: 0 };
  const add = (c: ChunkRecord) => {
    tally.rows += c.rows;
    tally.accepted += c.accepted;
    tally.failed += c.failed;
  };
  for (const c of file.done.values()) add(c);
  const resumedRows = tally.rows;
  const bar = new ProgressBar(total, progress, Date.now, tally.rows);
  let requests = 0;
  for await (const chunk of targetChunks(plan.csv, columns, plan.chunkSize)) {
    if (file.done.has(chunk.index)) continue;
    const record = await sendChunk(client, plan, chunk, file.idempotencyKey(chunk.index));
    requests++;
    file.record({ index: chunk.index, ...record });
    add({ kind: 'chunk', index: chunk.index, ...record });
    bar.update(tally);
  }
  bar.update(tally, true);
  const chunks = [...file.done.values()].sort((a, b) => a.index - b.index);
  return {
    ...tally,
    requests,
    resumedChunks: chunks.length - requests,
    resumedRows,
    seconds: (Date.now() - started) / 1000,
    sessionNos: chunks.flatMap((c) => (c.sessionNo ? [c.sessionNo] : [])),
    failures: chunks.flatMap((c) => c.failures),
    progressFile: file.path,
  };
}

async function sendChunk(
  client: WirebirdClient,
  plan: SendPlan,
  chunk: Chunk,
  idempotencyKey: string,
): Promise<Omit<ChunkRecord, 'kind' | 'index'>> {
  const { targets } = chunk;
  const group = {
    TemplateId: plan.templateId,
    ...(plan.senderId ? { SenderId: plan.senderId } : {}),
    Target: targets,
  };
  const timing = {
    ...(plan.sendAt === undefined ? {} : { SendAt: plan.sendAt }),
    ...(plan.validityS === undefined ? {} : { ValidityPeriod: plan.validityS }),
  };
  const request = { TaskContent: [group], ...timing };
  const answer = await sentBatch(client, request, idempotencyKey, chunk);
  // SendBatchUSMSMessage's answer schema: FailContent is a list of BatchInfo.
  const content = answer.FailContent as BatchInfo[] | undefined;
  const whole = content?.find((g) => g.FailureDetails)?.FailureDetails;
  // A refused template or sender id would fail every chunk alike: stop at the first.
  if (answer.RetCode === NOTHING_ACCEPTED && whole)
    throw new CliError(`the gateway refused every number: ${whole}`);
  const failures = failuresOf(content, chunk);
  const accepted = typeof answer.SuccessCount === 'number' ? answer.SuccessCount : 0;
  return {
    rows: targets.length,
    accepted,
    failed: targets.length - accepted,
    sessionNo: typeof answer.SessionNo === 'string' ? answer.SessionNo : null,
    failures,
  };
}

/** The batch's answer: accepted, or refused number by number (NothingAccepted, with FailContent). */
async function sentBatch(
  client: WirebirdClient,
  request: {
    TaskContent: { TemplateId: string; SenderId?: string; Target: Chunk['targets'] }[];
    SendAt?: number;
    ValidityPeriod?: number;
  },
  idempotencyKey: string,
  chunk: Chunk,
): Promise<Record<string, unknown>> {
  try {
    return await client.sendBatchUSMSMessage(request, { idempotencyKey });
  } catch (err) {
    if (err instanceof WirebirdApiError && err.code === 'NothingAccepted') return err.answer;
    if (
      err instanceof WirebirdApiError &&
      err.code !== 'Unauthenticated' &&
      err.code !== 'PermissionDenied'
    ) {
      throw new CliError(
        `the gateway refused the batch: ${inCsvTerms(String(err.answer.Message), chunk)} (RetCode ${err.retCode})`,
      );
    }
    throw cliErrorOf(err, 'the batch was not sent');
  }
}

/**
 * The refused rows with their CSV lines. FailContent lists them in the order they were sent, so
 * one forward pass over the chunk pairs each with its row, repeated phone numbers included.
 */
function failuresOf(content: BatchInfo[] | undefined, chunk: Chunk): Failure[] {
  let next = 0;
  const lineOf = (phone: string) => {
    while (next < chunk.targets.length && chunk.targets[next]?.Phone !== phone) next++;
    return chunk.lines[next++];
  };
  return (content ?? []).flatMap((group) =>
    group.Target.map((t) => ({
      phone: t.Phone,
      reason: t.FailureDetails || group.FailureDetails || 'refused',
      line: lineOf(t.Phone),
    })),
  );
}

/** The gateway names a row TaskContent[0].Target[i]; the person running this knows CSV lines. */
function inCsvTerms(message: string, chunk: Chunk): string {
  return message.replace(/TaskContent\[0\]\.Target\[(\d+)\]\.?/g, (whole, i: string) => {
    const line = chunk.lines[Number(i)];
    return line === undefined ? whole : `CSV line ${line}: `;
  });
}
