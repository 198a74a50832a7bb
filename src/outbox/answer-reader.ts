/**
 * Reading one HTTP/1.1 answer for the lean client (lean-http.ts): its head (past any interim 1xx),
 * then a body framed by Content-Length, by chunks, or by the connection's close, kept only up to a
 * limit. Anything it does not understand throws a LeanError, and the connection is not reused.
 */
export interface LeanAnswer {
  statusCode: number;
  retryAfter: string | undefined;
  /** The body's first bytes, up to the read limit. */
  excerpt: string;
}

const MAX_HEAD = 16 * 1024;

/** Why an attempt failed, with a code as node's socket errors have (EPROTO, ETIMEDOUT, …). */
export class LeanError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Reads one answer: its head, then a body framed by Content-Length, chunks, or the close. */
export class AnswerReader {
  private status = 0;
  private retryAfter: string | undefined;
  private mode: 'head' | 'length' | 'chunked' | 'close' = 'head';
  private remaining = 0;
  private keepAlive = true;
  private readonly parts: Buffer[] = [];
  private kept = 0;
  private chunkState: 'size' | 'data' | 'crlf' | 'trailers' = 'size';

  constructor(private readonly limit: number) {}

  /** Consumes what it can of `buf`; `done` once the answer is whole (or enough of it is read). */
  read(buf: Buffer): { used: number; done?: LeanAnswer; keepAlive: boolean } {
    let used = 0;
    while (this.mode === 'head') {
      const end = buf.indexOf('\r\n\r\n', used);
      if (end < 0) {
        if (buf.length - used > MAX_HEAD)
          throw new LeanError('EHEAD', 'the answer’s head is too large');
        return { used, keepAlive: false };
      }
      const text = buf.toString('latin1', used, end);
      used = end + 4;
      // An interim answer (100 Continue) is skipped; the real one follows it.
      this.head(text);
    }
    return this.body(buf, used);
  }

  /** Parses a head; an interim (1xx) one leaves the reader waiting for the next head. */
  private head(text: string): void {
    const lines = text.split('\r\n');
    const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0] ?? '');
    if (!m) throw new LeanError('EPROTO', 'the answer is not HTTP/1.x');
    this.status = Number(m[2]);
    if (this.status >= 100 && this.status < 200) return;
    this.keepAlive = m[1] === '1';
    let length: number | undefined;
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding' && /chunked/i.test(value)) this.mode = 'chunked';
      else if (name === 'connection') this.keepAlive = !/close/i.test(value) && this.keepAlive;
      else if (name === 'retry-after') this.retryAfter = value;
    }
    if (this.mode === 'chunked') return;
    if (this.status === 204 || this.status === 304) length = 0;
    if (length !== undefined && Number.isSafeInteger(length) && length >= 0) {
      this.mode = 'length';
      this.remaining = length;
    } else {
      this.mode = 'close';
      this.keepAlive = false;
    }
  }

  private body(buf: Buffer, from: number): { used: number; done?: LeanAnswer; keepAlive: boolean } {
    let at = from;
    if (this.mode === 'length') {
      const take = Math.min(this.remaining, buf.length - at);
      this.keep(buf.subarray(at, at + take));
      at += take;
      this.remaining -= take;
      if (this.remaining === 0) return this.done(at, this.keepAlive);
    } else if (this.mode === 'chunked') {
      const r = this.chunks(buf, at);
      at = r.at;
      if (r.ended) return this.done(at, this.keepAlive);
    } else {
      this.keep(buf.subarray(at));
      at = buf.length;
    }
    // Enough read to answer: the rest is not worth reading, and the connection goes with it.
    if (this.kept >= this.limit) return this.done(at, false);
    return { used: at, keepAlive: this.keepAlive };
  }

  private chunks(buf: Buffer, from: number): { at: number; ended: boolean } {
    let at = from;
    for (;;) {
      if (this.chunkState === 'data') {
        const take = Math.min(this.remaining, buf.length - at);
        this.keep(buf.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining > 0) return { at, ended: false };
        this.chunkState = 'crlf';
      }
      const eol = buf.indexOf('\r\n', at);
      if (eol < 0) return { at, ended: false };
      const line = buf.toString('latin1', at, eol);
      at = eol + 2;
      if (this.chunkState === 'crlf') {
        this.chunkState = 'size';
      } else if (this.chunkState === 'trailers') {
        if (line === '') return { at, ended: true };
      } else {
        const size = parseInt(line.split(';')[0] ?? '', 16);
        if (!Number.isSafeInteger(size) || size < 0)
          throw new LeanError('EPROTO', 'a bad chunk size');
        this.remaining = size;
        this.chunkState = size === 0 ? 'trailers' : 'data';
      }
    }
  }

  private keep(part: Buffer): void {
    if (this.kept >= this.limit || part.length === 0) return;
    const slice = part.subarray(0, this.limit - this.kept);
    this.parts.push(Buffer.from(slice));
    this.kept += slice.length;
  }

  private done(used: number, keepAlive: boolean) {
    const excerpt = Buffer.concat(this.parts).toString('utf8');
    return {
      used,
      keepAlive,
      done: { statusCode: this.status, retryAfter: this.retryAfter, excerpt },
    };
  }

  /** When the connection closes in 'close' mode, the answer is what was read. */
  closedAnswer(): LeanAnswer | undefined {
    return this.mode === 'close' ? this.done(0, false).done : undefined;
  }
}
