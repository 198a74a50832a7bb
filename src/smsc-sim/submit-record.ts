import type { PDU } from 'smpp';
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

export function submitRecordOf(systemId: string, pdu: PDU, messageId: string): SubmitRecord {
  // The smpp package reads short_message and message_payload as these objects; fields checked below.
  const sm = pdu.short_message as { message?: unknown; udh?: Buffer[] } | undefined;
  // (the same package: message_payload is such an object)
  const payload = pdu.message_payload as { message?: unknown } | undefined;
  const body = payload?.message ?? sm?.message;
  return {
    systemId,
    messageId,
    sourceAddr: textOf(pdu.source_addr),
    sourceTon: Number(pdu.source_addr_ton),
    sourceNpi: Number(pdu.source_addr_npi),
    destinationAddr: textOf(pdu.destination_addr),
    dataCoding: Number(pdu.data_coding),
    esmClass: Number(pdu.esm_class),
    registeredDelivery: Number(pdu.registered_delivery),
    text: typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('latin1') : '',
    udh: sm?.udh?.[0] ? [...sm.udh[0]] : undefined,
    sar:
      pdu.sar_msg_ref_num === undefined
        ? undefined
        : {
            ref: Number(pdu.sar_msg_ref_num),
            total: Number(pdu.sar_total_segments),
            seq: Number(pdu.sar_segment_seqnum),
          },
    payload: payload !== undefined,
  };
}
