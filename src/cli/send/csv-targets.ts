import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { TargetModal } from '../../domain/batches/batch.js';
import { CliError } from '../cli-error.js';
import { errorCode, errorText } from '../../util/unknown-values.js';

/** Which CSV columns hold what; the header row names them. */
export interface ColumnPlan {
  phone: string;
  /** TemplateParams in order: {1} from the first column named, {2} from the second… */
  params: readonly string[] | undefined;
  userId: string;
}

export interface Chunk {
  index: number;
  targets: TargetModal[];
  /** The CSV line each target's row ends on (1 is the header), as an editor numbers them. */
  lines: number[];
}

interface Row {
  record: Record<string, string>;
  info: { lines: number };
}

/** A CSV's data rows as records by header, each with the line it ends on. */
export function rows(path: string) {
  const parser = parse({
    columns: true,
    skip_empty_lines: true,
    bom: true,
    trim: true,
    info: true,
  });
  // pipe() does not pass on the file's errors (a missing file): the parser must end with them.
  const input = createReadStream(path).on('error', (err) => parser.destroy(err));
  // csv-parse's parser yields records of the columns option's shape.
  return input.pipe(parser) as AsyncIterable<Row> & NodeJS.ReadableStream;
}

/** The CSV's data rows, counted in one pass (quoted fields may hold line breaks). */
export async function countRows(path: string): Promise<number> {
  let n = 0;
  try {
    for await (const _row of rows(path)) n++;
  } catch (err) {
    throw csvProblem(path, err);
  }
  return n;
}

/** The column names of the CSV's header row ([] for a file without data rows). */
export async function csvHeader(path: string): Promise<string[]> {
  try {
    for await (const row of rows(path)) return Object.keys(row.record);
  } catch (err) {
    throw csvProblem(path, err);
  }
  return [];
}

/** The rows as SendBatchUSMSMessage targets, `size` at a time, numbered from 0. */
export async function* targetChunks(
  path: string,
  plan: ColumnPlan,
  size: number,
): AsyncGenerator<Chunk> {
  let toTarget: ((row: Record<string, string>) => TargetModal) | undefined;
  let chunk: Chunk = { index: 0, targets: [], lines: [] };
  try {
    for await (const { record, info } of rows(path)) {
      toTarget ??= targetMaker(Object.keys(record), plan);
      chunk.targets.push(toTarget(record));
      chunk.lines.push(info.lines);
      if (chunk.targets.length === size) {
        yield chunk;
        chunk = { index: chunk.index + 1, targets: [], lines: [] };
      }
    }
  } catch (err) {
    throw err instanceof CliError ? err : csvProblem(path, err);
  }
  if (chunk.targets.length > 0) yield chunk;
}

/** Checks the header against the plan once, then maps each row. */
function targetMaker(header: readonly string[], plan: ColumnPlan) {
  const need = (column: string, flag: string) => {
    if (!header.includes(column))
      throw new CliError(
        `${flag}: the CSV has no column "${column}" (its columns: ${header.join(', ')})`,
      );
  };
  need(plan.phone, '--phone-column');
  const params = plan.params ?? header.filter((c) => c !== plan.phone && c !== plan.userId);
  for (const p of params) need(p, '--params-column');
  const userId = header.includes(plan.userId) ? plan.userId : undefined;
  return (row: Record<string, string>): TargetModal => ({
    Phone: row[plan.phone] ?? '',
    TemplateParams: params.map((p) => row[p] ?? ''),
    ...(userId && row[userId] ? { UserId: row[userId] } : {}),
  });
}

function csvProblem(path: string, err: unknown): CliError {
  const e = { code: errorCode(err), message: errorText(err) };
  if (e.code === 'ENOENT') return new CliError(`--csv: ${path} does not exist`);
  if (e.code === 'EISDIR') return new CliError(`--csv: ${path} is a folder, not a CSV file`);
  return new CliError(`--csv: ${path} is not a valid CSV: ${e.message}`);
}
