import { ESM_UDHI } from '../domain/smpp/tables.js';
import { readUdh, userText } from '../domain/smpp/user-data.js';
import type { Pdu } from '../smpp-wire/codec.js';
import { textOf } from '../util/unknown-values.js';

/** One submit_sm as the SMSC simulator saw it. */
export interface SubmitRecord {
  systemId: string;
  messageId: string;
  sourceAddr: string;
  sourceTon: number;
  sourceNpi: number;
  destinationAddr: string;
  dataCoding: number;
  esmClass: number;
  registeredDelivery: number;
  /** The text as decoded by data_coding (without the UDH). */
  text: string;
  udh: number[] | undefined;
  sar: { ref: number; total: number; seq: number } | undefined;
  payload: boolean;
}

const octets = (v: unknown): Buffer => (Buffer.isBuffer(v) ? v : Buffer.alloc(0));

export function submitRecordOf(systemId: string, pdu: Pdu, messageId: string): SubmitRecord {
  const payload = pdu.message_payload !== undefined;
  const user = octets(payload ? pdu.message_payload : pdu.short_message);
  const esmClass = Number(pdu.esm_class);
  const udh = esmClass & ESM_UDHI ? readUdh(user) : undefined;
  const header = typeof udh === 'object' ? udh : undefined;
  const dataCoding = Number(pdu.data_coding);
  // A test SMSC records what it got whatever it holds: leniently, as a handset's reply is read.
  const text = userText(user.subarray(header?.length ?? 0), dataCoding, { lenient: true }) ?? '';
  const first = header?.elements[0];
  return {
    systemId,
    messageId,
    sourceAddr: textOf(pdu.source_addr),
    sourceTon: Number(pdu.source_addr_ton),
    sourceNpi: Number(pdu.source_addr_npi),
    destinationAddr: textOf(pdu.destination_addr),
    dataCoding,
    esmClass,
    registeredDelivery: Number(pdu.registered_delivery),
    text,
    // The first element whole, as it sits in the header: IEI, length, data.
    udh: first ? [first.iei, first.data.length, ...first.data] : undefined,
    sar:
      pdu.sar_msg_ref_num === undefined
        ? undefined
        : {
            ref: Number(pdu.sar_msg_ref_num),
            total: Number(pdu.sar_total_segments),
            seq: Number(pdu.sar_segment_seqnum),
          },
    payload,
  };
}
