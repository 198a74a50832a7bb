import type { Logger } from 'pino';
import type { ArrivedMessage, ArrivedPart, InboundMessage } from '../domain/inbound/inbound.js';
import type { InboundStore } from '../domain/ports.js';

export interface InboundSinkOptions {
  store: Pick<InboundStore, 'storeInbound' | 'storeInboundPart' | 'flushInboundParts'>;
  /** A fresh public id per message stored. */
  newId: () => string;
  log: Logger;
  /** Told of each message stored for the first time (metrics, the console's live view). */
  onStored?: (message: InboundMessage) => void;
}

/**
 * Where channels hand what arrives (a reply, a WhatsApp message). It resolves once the message
 * is durably stored, so a channel acknowledges upstream only then: an SMSC that got no answer
 * delivers again, and the re-delivery is recognised by its dedupe key and stored once.
 */
export class InboundSink {
  constructor(private readonly options: InboundSinkOptions) {}

  async receive(arrived: ArrivedMessage): Promise<{ message: InboundMessage; stored: boolean }> {
    const result = await this.options.store.storeInbound(arrived, this.options.newId());
    return this.noted(result);
  }

  /** One part of a concatenated reply; the whole message is stored with its last part. */
  async receivePart(part: ArrivedPart): Promise<void> {
    const result = await this.options.store.storeInboundPart(part, this.options.newId());
    if (result) this.noted(result);
  }

  /** Stores, marked incomplete, the replies whose first part came `waitMs` ago or more. */
  async flush(now: number, waitMs: number): Promise<number> {
    const { store, newId, log } = this.options;
    const n = await store.flushInboundParts(now - waitMs, newId);
    if (n > 0) log.warn({ messages: n }, 'replies stored with parts missing after the wait');
    return n;
  }

  private noted(result: { message: InboundMessage; stored: boolean }) {
    const { log, onStored } = this.options;
    const { message } = result;
    if (!result.stored) {
      log.info({ inboundId: message.inboundId }, 'inbound message delivered again; stored once');
      return result;
    }
    if (message.accountId === undefined) {
      log.warn(
        { channel: message.channel, to: message.to },
        'inbound message to an unregistered number (unrouted)',
      );
    }
    onStored?.(message);
    return result;
  }
}
