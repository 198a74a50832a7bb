/**
 * Fetches the files of inbound WhatsApp messages into the media store. Meta sends a media id;
 * `GET {apiUrl}/{media id}` answers a URL that lasts minutes, which is read with the business
 * phone's token. The queue is the store (pending messages, claimed under a lease), so a file
 * waiting to be fetched survives any restart and several nodes share the work.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import {
  nextFetchAt,
  type PendingMedia,
  type SettledMedia,
} from '../../domain/inbound/inbound-media.js';
import type { MediaFile } from '../../domain/media/media-file.js';
import { MEDIA_MAX_BYTES, normaliseMimeType } from '../../domain/media/media-kinds.js';
import { fieldsOf } from '../../util/unknown-values.js';
import type { AccountStore, Clock, InboundMediaStore, Scheduler } from '../../domain/ports.js';
import { downloadGraph, getGraph } from './graph-client.js';
import { GraphFailure } from './graph-errors.js';
import { SenderDirectory, type WhatsAppSender } from './sender-directory.js';
import { Passes } from '../../util/passes.js';

export interface MediaFetchOptions {
  store: InboundMediaStore & Pick<AccountStore, 'getBusinessPhone'>;
  /** The Graph API base, version included (whatsapp.apiUrl). */
  apiUrl: string;
  timeoutMs: number;
  newMediaId: () => string;
  clock: Clock;
  scheduler: Scheduler;
  log: Logger;
  /** How often due files are looked for; a message that brings one nudges at once. */
  pollMs: number;
  /** Told how each attempt ended (metrics). */
  onOutcome?: (outcome: 'stored' | 'failed' | 'retry') => void;
}

/** Files fetched at once, per node. */
const BATCH = 4;
/** Longer than the two calls of one fetch may take at the longest timeout allowed. */
const LEASE_MS = 30 * 60_000;

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
  'video/mp4': '.mp4',
  'video/3gpp': '.3gp',
  'audio/ogg': '.ogg',
  'audio/mpeg': '.mp3',
  'audio/aac': '.aac',
  'audio/amr': '.amr',
  'audio/mp4': '.m4a',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
};

export class InboundMediaFetcher {
  private readonly senders: SenderDirectory;
  private readonly passes = new Passes(() => this.pass());
  private timer: { cancel(): void } | undefined;
  /** The gateway's address as applications reach it: files are served at {publicUrl}/media/{id}. */
  private publicUrl: string | undefined;

  constructor(private readonly options: MediaFetchOptions) {
    this.senders = new SenderDirectory(options.store, () => options.clock.now());
  }

  /** Starts once the gateway listens, when the address files are served at is known. */
  start(publicUrl: string): void {
    this.publicUrl = publicUrl.replace(/\/+$/, '');
    this.timer = this.options.scheduler.every(this.options.pollMs, () => this.nudge());
    this.nudge();
  }

  /** Looks for due files now (a pass under way looks again when it ends). */
  nudge(): void {
    if (this.publicUrl !== undefined) this.passes.nudge();
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    await this.passes.stop();
  }

  /** One batch of due files; true when the batch was full (more may be due). */
  private async pass(): Promise<boolean> {
    const { store, clock, log } = this.options;
    try {
      const now = clock.now();
      const due = await store.claimInboundMedia(now, now + LEASE_MS, BATCH);
      await Promise.all(due.map((p) => this.fetchOne(p)));
      return due.length === BATCH;
    } catch (err) {
      // A store hiccup: what was claimed comes back when its lease ends.
      log.error({ err }, 'inbound media: a pass failed');
      return false;
    }
  }

  private async fetchOne(p: PendingMedia): Promise<void> {
    const { store, clock, log, onOutcome } = this.options;
    let outcome: SettledMedia;
    try {
      outcome = await this.fetch(p);
    } catch (err) {
      const failure = err instanceof GraphFailure ? err : undefined;
      if (!failure) throw err;
      const retryAt = failure.retryable ? nextFetchAt(p.attempts, clock.now()) : undefined;
      if (retryAt !== undefined) {
        const at = Math.max(retryAt, clock.now() + (failure.retryAfterMs ?? 0));
        log.warn(
          { inboundId: p.inboundId, code: failure.code, attempts: p.attempts },
          'inbound media: retrying',
        );
        onOutcome?.('retry');
        return store.postponeInboundMedia(p.inboundId, at, failure.desc);
      }
      outcome = { state: 'failed', error: `${failure.code}: ${failure.desc}` };
    }
    await store.settleInboundMedia(p.inboundId, outcome, clock.now());
    log.info({ inboundId: p.inboundId, state: outcome.state }, 'inbound media settled');
    onOutcome?.(outcome.state);
  }

  /** The file, stored; a failure Graph calls final, settled; anything else thrown. */
  private async fetch(p: PendingMedia): Promise<SettledMedia> {
    const sender = await this.senders.lookup(p.accountId, p.to);
    if (!sender) {
      return {
        state: 'failed',
        error: `${p.to} has no WhatsApp phone number id and access token registered`,
      };
    }
    const facts = await this.facts(p, sender);
    if (facts.size !== undefined && facts.size > MEDIA_MAX_BYTES) {
      return { state: 'failed', error: `the file is larger than ${MEDIA_MAX_BYTES} bytes` };
    }
    const { timeoutMs } = this.options;
    const { accessToken } = sender;
    const got = await downloadGraph({ url: facts.url, accessToken, timeoutMs }, MEDIA_MAX_BYTES);
    const file = this.fileOf(p, got.bytes, facts.mimeType ?? got.contentType);
    if (facts.sha256 !== undefined && !sameDigest(facts.sha256, file.sha256)) {
      throw new GraphFailure(true, 'SHA256', 'the file read does not match the sha256 Meta gave');
    }
    return { state: 'stored', file, url: `${this.publicUrl ?? ''}/media/${file.mediaId}` };
  }

  /** `GET /{media id}`: where the file is for the next minutes, and what Meta says it is. */
  private async facts(p: PendingMedia, sender: WhatsAppSender) {
    const { apiUrl, timeoutMs } = this.options;
    const query = `phone_number_id=${encodeURIComponent(sender.phoneNumberId)}`;
    const url = `${apiUrl}/${encodeURIComponent(p.ref)}?${query}`;
    // Graph's media metadata answer; each field is checked before it is used.
    const answer = fieldsOf(await getGraph({ url, accessToken: sender.accessToken, timeoutMs }));
    if (typeof answer.url !== 'string' || !/^https?:\/\//.test(answer.url)) {
      throw new GraphFailure(true, 'NOURL', 'the Graph API answered the media id without a URL');
    }
    return {
      url: answer.url,
      mimeType: typeof answer.mime_type === 'string' ? answer.mime_type : undefined,
      sha256: typeof answer.sha256 === 'string' ? answer.sha256 : undefined,
      size: Number.isFinite(Number(answer.file_size)) ? Number(answer.file_size) : undefined,
    };
  }

  private fileOf(p: PendingMedia, bytes: Buffer, type: string | undefined): MediaFile {
    const mimeType = normaliseMimeType(type ?? '') || 'application/octet-stream';
    return {
      mediaId: this.options.newMediaId(),
      accountId: p.accountId,
      mimeType,
      fileName: p.fileName ?? `${p.inboundId}${EXTENSIONS[mimeType] ?? ''}`,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      createdAt: this.options.clock.now(),
      bytes,
    };
  }
}

/** Meta writes the digest in hex or base64 depending on where; either one matches. */
function sameDigest(given: string, hex: string): boolean {
  const g = given.trim();
  return g.toLowerCase() === hex || g === Buffer.from(hex, 'hex').toString('base64');
}
