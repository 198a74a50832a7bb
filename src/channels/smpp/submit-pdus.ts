import type { SmscConfig } from '../../config/smpp-config.js';
import { concatUdhOf, type ConcatPart } from '../../domain/messages/concat.js';
import type { ClaimedMessage } from '../../domain/messages/message.js';
import { encodeGsm7, encodeUcs2, splitSegments } from '../../domain/segments/segments.js';
import { destinationAddress, sourceAddress } from '../../domain/smpp/addresses.js';
import { ESM_UDHI } from '../../domain/smpp/tables.js';
import { relativeSmppTime } from '../../domain/smpp/time-format.js';

export const DC_GSM = 0x00;
export const DC_LATIN1 = 0x03;
export const DC_UCS2 = 0x08;
const RECEIPT_ON_FINAL = 0x01;

/** The submit_sm fields of one part, as the `smpp` package takes them. */
export type SubmitFields = Record<string, unknown> & { short_message: Buffer };

type Settings = Pick<SmscConfig, 'encoding' | 'split' | 'defaultSender'>;

/**
 * The submit_sm PDUs that carry one SMS: one per part, cut where CostCount counts them, so the
 * parts on the wire are the parts the API charged for (with message_payload, one PDU that the
 * SMSC cuts the same way).
 */
export function submitPdusFor(m: ClaimedMessage, smsc: Settings, now: number): SubmitFields[] {
  const source = sourceAddress(m.senderId || smsc.defaultSender, m.extendCode);
  const dest = destinationAddress(m.e164);
  const { encoding, parts } = splitSegments(m.body);
  const dataCoding = encoding === 'ucs2' ? DC_UCS2 : gsmCoding(m.body, smsc.encoding);
  const encode = (text: string) => encodeAs(text, dataCoding);
  const base = {
    source_addr_ton: source.ton,
    source_addr_npi: source.npi,
    source_addr: source.addr,
    dest_addr_ton: dest.ton,
    dest_addr_npi: dest.npi,
    destination_addr: dest.addr,
    registered_delivery: RECEIPT_ON_FINAL,
    data_coding: dataCoding,
    esm_class: 0,
    // What is left of the ValidityPeriod, so that the SMSC drops the message too once it passes.
    ...(m.expiresAt === undefined ? {} : { validity_period: relativeSmppTime(m.expiresAt - now) }),
  };
  if (m.concat) return [ownPart(base, encode(m.body), m.concat, smsc.split)];
  if (parts.length === 1) return [{ ...base, short_message: encode(m.body) }];
  if (smsc.split === 'payload')
    return [{ ...base, short_message: Buffer.alloc(0), message_payload: encode(m.body) }];
  const total = parts.length;
  return parts.map((text, i) =>
    smsc.split === 'sar'
      ? {
          ...base,
          short_message: encode(text),
          sar_msg_ref_num: m.id & 0xffff,
          sar_total_segments: total,
          sar_segment_seqnum: i + 1,
        }
      : {
          ...base,
          esm_class: ESM_UDHI,
          short_message: Buffer.concat([
            concatUdhOf({ ref: m.id & 0xff, total, seq: i + 1, wide: false }),
            encode(text),
          ]),
        },
  );
}

/**
 * A part an ESME split itself goes on with the ESME's reference, count and number, so the phone
 * joins it with its siblings: as SAR TLVs when this SMSC takes those, else in a UDH.
 */
function ownPart(
  base: Record<string, unknown>,
  text: Buffer,
  c: ConcatPart,
  split: Settings['split'],
): SubmitFields {
  if (split === 'sar') {
    const sar = { sar_msg_ref_num: c.ref, sar_total_segments: c.total, sar_segment_seqnum: c.seq };
    return { ...base, short_message: text, ...sar };
  }
  return { ...base, esm_class: ESM_UDHI, short_message: Buffer.concat([concatUdhOf(c), text]) };
}

/** Latin-1 lacks a few GSM characters (€, Greek capitals): such text keeps the GSM alphabet. */
function gsmCoding(text: string, preferred: Settings['encoding']): number {
  // eslint-disable-next-line no-control-regex
  return preferred === 'latin1' && /^[\u0000-\u00ff]*$/.test(text) ? DC_LATIN1 : DC_GSM;
}

function encodeAs(text: string, dataCoding: number): Buffer {
  if (dataCoding === DC_UCS2) return Buffer.from(encodeUcs2(text));
  if (dataCoding === DC_LATIN1) return Buffer.from(text, 'latin1');
  return Buffer.from(encodeGsm7(text));
}
