/**
 * Wirebird media ids in a message's content, swapped for the WhatsApp media ids of the phone
 * number that sends it. A file is uploaded to a phone number's /media the first time a message
 * from that number needs it, and its WhatsApp id is kept (in the store, so every node shares it)
 * for as long as Meta keeps the file.
 */
import type { Logger } from 'pino';
import type { BusinessContent } from '../../domain/business-messages/content.js';
import { mediaIdsOf, withMediaIds } from '../../domain/business-messages/media-refs.js';
import { isWirebirdMediaId, type MediaFile } from '../../domain/media/media-file.js';
import type { Clock, MediaStore } from '../../domain/ports.js';
import { answeredId, postGraph, undici } from './graph-client.js';
import { GraphFailure } from './graph-errors.js';
import type { WhatsAppSender } from './sender-directory.js';
import { fieldsOf } from '../../util/unknown-values.js';

export interface MediaUploadOptions {
  /** The Graph API base, version included (whatsapp.apiUrl). */
  apiUrl: string;
  timeoutMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Meta deletes an uploaded file after 30 days; an id is reused for a day less, so a message
 * queued or retried near the end never names a file that is gone.
 */
export const UPLOAD_REUSE_MS = 29 * DAY_MS;

export class WhatsAppMedia {
  /** Uploads under way, so a batch of messages naming one file uploads it once per node. */
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly store: MediaStore,
    private readonly options: MediaUploadOptions,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * A copy of `content` with every Wirebird media id replaced by the WhatsApp media id for the
   * sender's phone number id; ids of WhatsApp's own form stay as they are. Throws GraphFailure
   * when an upload fails, or (not retryable) when a file is no longer stored; the store's own
   * errors pass through as they are.
   */
  async resolve(content: BusinessContent, sender: WhatsAppSender): Promise<BusinessContent> {
    const ids = new Map<string, string>();
    for (const ref of mediaIdsOf(content)) {
      if (isWirebirdMediaId(ref.id) && !ids.has(ref.id)) {
        ids.set(ref.id, await this.whatsAppId(ref.id, sender));
      }
    }
    if (ids.size === 0) return content;
    return withMediaIds(content, (ref) => ids.get(ref.id) ?? ref.id);
  }

  private whatsAppId(mediaId: string, sender: WhatsAppSender): Promise<string> {
    const key = `${sender.accountId}:${mediaId}:${sender.phoneNumberId}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const lookup = this.cachedOrUploaded(mediaId, sender).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, lookup);
    return lookup;
  }

  private async cachedOrUploaded(mediaId: string, sender: WhatsAppSender): Promise<string> {
    const { accountId, phoneNumberId } = sender;
    const cached = await this.store.getMediaUpload(accountId, mediaId, phoneNumberId);
    if (cached && this.clock.now() - cached.uploadedAt < UPLOAD_REUSE_MS) {
      return cached.whatsAppMediaId;
    }
    const file = await this.store.getMediaFile(accountId, mediaId);
    if (!file) {
      throw new GraphFailure(false, 'MEDIA_NOT_FOUND', `media ${mediaId} is not stored (any more)`);
    }
    const uploadedAt = this.clock.now();
    const whatsAppMediaId = await this.upload(file, sender);
    await this.store.saveMediaUpload({ mediaId, phoneNumberId, whatsAppMediaId, uploadedAt });
    this.logger.info(
      { mediaId, phoneNumberId, whatsAppMediaId, size: file.size },
      'media uploaded to WhatsApp',
    );
    return whatsAppMediaId;
  }

  /** POST {apiUrl}/{phone number id}/media, as Graph takes it; answers the WhatsApp media id. */
  private async upload(file: MediaFile, sender: WhatsAppSender): Promise<string> {
    const { FormData } = await undici();
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', file.mimeType);
    form.append('file', new Blob([file.bytes], { type: file.mimeType }), file.fileName);
    const url = `${this.options.apiUrl}/${encodeURIComponent(sender.phoneNumberId)}/media`;
    const { accessToken } = sender;
    const answer = await postGraph({ url, accessToken, timeoutMs: this.options.timeoutMs }, form);
    return answeredId(fieldsOf(answer).id, 'the media upload');
  }
}
