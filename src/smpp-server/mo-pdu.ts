/**
 * A reply (MO) to one of the account's SMS numbers, as its ESME receives it: a deliver_sm from
 * the handset to the number, esm_class 0, GSM 03.38 (data_coding 0, unpacked) when the text fits
 * the alphabet, else UCS-2 (8); text past 254 octets whole in message_payload.
 */
import type { PduFields } from '../smpp-wire/codec.js';
import { encodeGsm7, encodeUcs2, gsm7Length } from '../domain/segments/segments.js';
import { destinationAddress, sourceAddress, type SmppAddress } from '../domain/smpp/addresses.js';
import { textOf } from '../util/unknown-values.js';

const SHORT_MESSAGE_MAX = 254;

/** The handset: an E.164 number as digits with TON 1 / NPI 1; anything else as it came. */
function handset(value: string): SmppAddress {
  return /^\+\d{6,15}$/.test(value) ? destinationAddress(value) : { ton: 0, npi: 1, addr: value };
}

/** The deliver_sm for a `message.inbound` event's data (an SMS reply). */
export function moDeliverSm(data: Record<string, unknown>): PduFields {
  const text = typeof data.Text === 'string' ? data.Text : '';
  const gsm = gsm7Length(text) !== undefined;
  const bytes = Buffer.from(gsm ? encodeGsm7(text) : encodeUcs2(text));
  const from = handset(textOf(data.From));
  // The account's number, addressed as a sender id of its kind would be (a short code: TON 3).
  const to = sourceAddress(textOf(data.To), '');
  const long = bytes.length > SHORT_MESSAGE_MAX;
  return {
    source_addr_ton: from.ton,
    source_addr_npi: from.npi,
    source_addr: from.addr,
    dest_addr_ton: to.ton,
    dest_addr_npi: to.npi,
    destination_addr: to.addr,
    esm_class: 0,
    data_coding: gsm ? 0 : 8,
    short_message: long ? Buffer.alloc(0) : bytes,
    ...(long ? { message_payload: bytes } : {}),
  };
}
