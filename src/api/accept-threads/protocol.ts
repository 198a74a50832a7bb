import type { Config } from '../../config/config.js';
import { RetCode, WirebirdError, type RetCodeName } from '../../domain/errors.js';
import type { MessageKind } from '../../domain/messages/message.js';
import type { StoreShare } from '../../domain/ports.js';
import type { OffloadedRequest } from '../context.js';

/**
 * The Actions the acceptance threads answer: the one whose requests carry up to 1000 messages.
 * Any other body is handed back to the main thread.
 */
export const OFFLOADED_ACTIONS: ReadonlySet<string> = new Set(['SendBatchUSMSMessage']);

/** What an acceptance thread is started with. */
export interface AcceptWorkerData {
  config: Config;
  /** What the thread opens its store connection with, beside the main thread's. */
  share: StoreShare;
}

export interface AcceptJob extends OffloadedRequest {
  id: number;
}

/** Messages stored by one answered request, per kind and channel, for the main thread's metrics. */
export type AcceptedCounts = [kind: MessageKind, channel: string, count: number][];

/** Numbers an account's policy refused, by rule: counted on the main thread (metrics). */
export type RefusedCounts = [accountId: number, rule: string, count: number][];

/**
 * `taken: false` hands the request back: its body is not one the thread answers (another Action,
 * or text the main thread's own parser must judge).
 */
export type AcceptReply =
  | { id: number; taken: false }
  | {
      id: number;
      taken: true;
      action: string;
      fields: Record<string, unknown>;
      accepted: AcceptedCounts;
      refused: RefusedCounts;
      /** Something it stored is due now: the dispatcher is to look (a held one is not). */
      due: boolean;
    }
  | {
      id: number;
      taken: true;
      action: string | undefined;
      error: CarriedError;
      refused?: RefusedCounts;
    };

export type FromWorker = AcceptReply | { ready: true } | { stopped: true };
export type ToWorker = AcceptJob | { stop: true };

/** A WirebirdError as it crosses threads; `internal` carries what the main thread logs. */
export type CarriedError =
  { retCode: number; message: string; details?: Record<string, unknown> } | { internal: string };

const NAMES = new Map<number, RetCodeName>(
  // Object.entries widens a const object's keys to string; these are RetCode's own.
  Object.entries(RetCode).map(([name, code]) => [code, name as RetCodeName]),
);

export function carryError(err: unknown): CarriedError {
  if (err instanceof WirebirdError) {
    return { retCode: err.retCode, message: err.message, details: err.details };
  }
  return { internal: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}

/** The WirebirdError a carried one stands for; an internal error is returned as an Error. */
export function landError(carried: CarriedError): Error {
  if ('internal' in carried) return new Error(`acceptance thread: ${carried.internal}`);
  const name = NAMES.get(carried.retCode) ?? 'Internal';
  return new WirebirdError(name, carried.message, carried.details);
}
