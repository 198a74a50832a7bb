/**
 * What the network sends back: inbound messages and their files, as the store keeps them;
 * ports.ts composes them into the Store.
 */
import type { PendingMedia, SettledMedia } from './inbound-media.js';
import type {
  ArrivedMessage,
  ArrivedPart,
  InboundChannel,
  InboundFilter,
  InboundMessage,
  InboundPage,
} from './inbound.js';

/** Inbound messages (docs/inbound.md): stored once, routed by the number they were sent to. */
export interface InboundStore {
  /**
   * Stores an arrival unless one with its channel and dedupe key is stored already, with its
   * owner (the account that registered `to` for the channel) and its reply link, in one
   * transaction. Answers the stored message, and whether this call stored it.
   */
  storeInbound(
    arrived: ArrivedMessage,
    inboundId: string,
  ): Promise<{ message: InboundMessage; stored: boolean }>;
  /** Newest first; `accountId: null` lists the unrouted ones. */
  listInbound(filter: InboundFilter): Promise<InboundPage>;
  /** The account that registered `number` to receive on `channel`, if any. */
  numberOwner(channel: InboundChannel, number: string): Promise<number | undefined>;
  /**
   * Keeps one part of a concatenated reply (a part delivered twice is kept once); when the last
   * one comes, stores the whole message as storeInbound does and lets the parts go, in the same
   * transaction. Answers the message once whole, undefined while parts are missing.
   */
  storeInboundPart(
    part: ArrivedPart,
    inboundId: string,
  ): Promise<{ message: InboundMessage; stored: boolean } | undefined>;
  /**
   * Stores, marked incomplete, every message whose first part came at or before `cutoff` and
   * is still missing parts. Answers how many.
   */
  flushInboundParts(cutoff: number, newId: () => string): Promise<number>;
}

/**
 * The files inbound WhatsApp messages carry, fetched into the media store (docs/inbound.md). A
 * routed message with a file is stored pending and its message.inbound event waits for the file:
 * the event is written when the fetch settles, with the gateway's URL or why there is none.
 */
export interface InboundMediaStore {
  /**
   * Up to `limit` files due at `now`, each held until `leaseUntil` (no other pass or node takes
   * it before), its attempt counted.
   */
  claimInboundMedia(now: number, leaseUntil: number, limit: number): Promise<PendingMedia[]>;
  /** Tries again at `dueAt`, noting why this attempt failed. */
  postponeInboundMedia(inboundId: string, dueAt: number, error: string): Promise<void>;
  /**
   * Ends a fetch in one transaction: the file stored (when there is one), the message's media
   * settled, its message.inbound event written. False, and nothing written, if it was settled
   * already (by another node whose lease ran out under it).
   */
  settleInboundMedia(inboundId: string, outcome: SettledMedia, at: number): Promise<boolean>;
}
