import type { Logger } from 'pino';
import type { ArrivedMessage, InboundMessage } from '../domain/inbound/inbound.js';
import type { InboundStore } from '../domain/ports.js';

export interface InboundSinkOptions {
  store: Pick<InboundStore, 'storeInbound'>;
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
    const { store, newId, log, onStored } = this.options;
    const result = await store.storeInbound(arrived, newId());
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
