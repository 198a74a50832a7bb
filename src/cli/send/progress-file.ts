import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { CliError } from '../cli-error.js';

/** What a run is: a resumed run must be the same one, or it would send something else. */
export interface RunHeader {
  kind: 'run';
  /** Prefix of the chunks' Idempotency-Keys. */
  runId: string;
  csvBytes: number;
  csvModifiedMs: number;
  templateId: string;
  senderId: string;
  params: readonly string[] | null;
  phoneColumn: string;
  chunkSize: number;
  /** --at and --validity (absent in progress files written before they existed). */
  sendAt?: number | null;
  validityS?: number | null;
}

export interface Failure {
  phone: string;
  reason: string;
  /** The CSV line of the row (absent in progress files written before lines were kept). */
  line?: number;
}

export interface ChunkRecord {
  kind: 'chunk';
  index: number;
  rows: number;
  accepted: number;
  failed: number;
  sessionNo: string | null;
  failures: Failure[];
}

/** The settings a run is checked against: the header without what the first run chose. */
export type RunSettings = Omit<RunHeader, 'kind' | 'runId' | 'csvBytes' | 'csvModifiedMs'>;

/**
 * A JSON-lines file next to the CSV: the run's header, then one line per chunk the gateway
 * answered, each synced to disk before the next chunk is sent. A torn last line (a crash while
 * writing) is ignored: that chunk is sent again under the same Idempotency-Key.
 */
export class ProgressFile {
  readonly done = new Map<number, ChunkRecord>();

  private constructor(
    readonly path: string,
    readonly header: RunHeader,
  ) {}

  static pathFor(csvPath: string): string {
    return `${csvPath}.progress`;
  }

  static open(csvPath: string, settings: RunSettings, newRunId: () => string): ProgressFile {
    const path = ProgressFile.pathFor(csvPath);
    const csv = statSync(csvPath);
    const fresh: RunHeader = {
      kind: 'run',
      runId: newRunId(),
      csvBytes: csv.size,
      csvModifiedMs: Math.floor(csv.mtimeMs),
      ...settings,
    };
    if (!existsSync(path)) {
      writeSynced(path, fresh);
      return new ProgressFile(path, fresh);
    }
    const [header, ...lines] = readLines(path);
    if (header?.kind !== 'run')
      throw new CliError(`${path} is not a Wirebird progress file; remove it`);
    const chunks = lines.filter((c): c is ChunkRecord => c.kind === 'chunk');
    // A run that never had a chunk answered may be started over with other settings.
    if (chunks.length === 0 && otherRun(header, fresh).length > 0) {
      writeFileSync(path, '');
      writeSynced(path, fresh);
      return new ProgressFile(path, fresh);
    }
    const changed = otherRun(header, fresh);
    if (changed.length > 0) {
      throw new CliError(
        `${path} belongs to another run (${changed.join(', ')} differ): rerun with the same CSV and options to resume, or remove it to start over`,
      );
    }
    const file = new ProgressFile(path, header);
    for (const c of chunks) file.done.set(c.index, c);
    return file;
  }

  record(chunk: Omit<ChunkRecord, 'kind'>): void {
    const line: ChunkRecord = { kind: 'chunk', ...chunk };
    writeSynced(this.path, line);
    this.done.set(chunk.index, line);
  }

  idempotencyKey(index: number): string {
    return `${this.header.runId}-${index}`;
  }
}

function writeSynced(path: string, line: RunHeader | ChunkRecord): void {
  appendFileSync(path, JSON.stringify(line) + '\n');
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function readLines(path: string): (RunHeader | ChunkRecord)[] {
  const out: (RunHeader | ChunkRecord)[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      // The progress file holds only lines this command wrote.
      out.push(JSON.parse(line) as RunHeader | ChunkRecord);
    } catch {
      break;
    }
  }
  return out;
}

/** The settings in which two runs differ. */
function otherRun(was: RunHeader, now: RunHeader): string[] {
  const changed: string[] = (
    ['csvBytes', 'csvModifiedMs', 'templateId', 'senderId', 'phoneColumn', 'chunkSize'] as const
  ).filter((k) => was[k] !== now[k]);
  if (JSON.stringify(was.params) !== JSON.stringify(now.params)) changed.push('params');
  // A resent chunk keeps its Idempotency-Key: with another time it would be another request.
  if ((was.sendAt ?? null) !== (now.sendAt ?? null)) changed.push('--at');
  if ((was.validityS ?? null) !== (now.validityS ?? null)) changed.push('--validity');
  return changed;
}
