import type { ReportStatus } from '../../domain/messages/message.js';
import { ESM_DELIVERY_RECEIPT, ESM_TYPE_MASK, STAT_OF_STATE } from '../../domain/smpp/tables.js';

/** What a delivery receipt says, from its TLVs where present, else from its text. */
export interface DeliveryReceipt {
  id: string;
  stat: string;
  err: string;
}

/** The deliver_sm fields a receipt is read from, as the `smpp` package decodes them. */
export interface DeliverFields {
  esm_class?: unknown;
  short_message?: unknown;
  receipted_message_id?: unknown;
  message_state?: unknown;
  network_error_code?: unknown;
}

/** The receipt a deliver_sm carries, or undefined for one that is not a receipt (a reply, say). */
export function readDeliveryReceipt(pdu: DeliverFields): DeliveryReceipt | undefined {
  const text = textOf(pdu.short_message);
  const isReceipt =
    ((Number(pdu.esm_class) || 0) & ESM_TYPE_MASK) === ESM_DELIVERY_RECEIPT ||
    typeof pdu.receipted_message_id === 'string';
  if (!isReceipt) return undefined;
  const id = stringField(pdu.receipted_message_id) ?? field(text, /\bid:\s*([^\s]+)/i);
  const stat =
    STAT_OF_STATE.get(Number(pdu.message_state)) ?? field(text, /\bstat:\s*([A-Za-z]+)/i);
  if (!id || !stat) return undefined;
  const err = field(text, /\berr:\s*([0-9A-Za-z]+)/i) ?? networkError(pdu.network_error_code);
  return { id, stat: stat.toUpperCase(), err: err ?? '000' };
}

/** How a receipt's stat reads as a report status, code and sentence. */
export function reportOfReceipt(r: DeliveryReceipt): {
  status: ReportStatus;
  code: string;
  desc: string;
} {
  const [status, sentence] = STATS[r.stat] ?? ['unknown', `reported as ${r.stat}`];
  const code = `${r.stat}:${r.err}`;
  const detail = r.err && !/^0+$/.test(r.err) ? ` (network error ${r.err})` : '';
  return { status, code, desc: `${sentence}${detail}` };
}

const STATS: Record<string, [ReportStatus, string]> = {
  DELIVRD: ['delivered', 'delivered to the handset'],
  UNDELIV: ['failed', 'undeliverable'],
  EXPIRED: ['failed', 'expired before it could be delivered'],
  REJECTD: ['failed', 'rejected by the network'],
  DELETED: ['failed', 'deleted by the SMSC before delivery'],
  UNKNOWN: ['unknown', 'the network does not know whether it was delivered'],
  // Not final: the SMSC still holds it; the final receipt (or the receipt timeout) decides.
  ENROUTE: ['sent', 'on its way'],
  ACCEPTD: ['sent', 'accepted by the SMSC'],
};

function textOf(sm: unknown): string {
  if (typeof sm === 'string') return sm;
  if (Buffer.isBuffer(sm)) return sm.toString('latin1');
  if (sm && typeof sm === 'object' && 'message' in sm) return textOf(sm.message);
  return '';
}

function field(text: string, re: RegExp): string | undefined {
  return re.exec(text)?.[1];
}

function stringField(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** network_error_code is 3 octets: network type, then a 2-octet code. */
function networkError(v: unknown): string | undefined {
  if (!Buffer.isBuffer(v) || v.length < 3) return undefined;
  return String(v.readUInt16BE(1)).padStart(3, '0');
}
