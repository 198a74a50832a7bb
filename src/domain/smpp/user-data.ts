/**
 * An SMS's user data as SMPP carries it (short_message or message_payload): its user data header
 * (TS 23.040 9.2.3.24), the place a part takes in a concatenated message (the UDH's IEI 00 or 08,
 * or the SAR TLVs), and its text by data_coding (SMPP 3.4 5.2.19). One reading for the SMPP
 * client's replies (channels/smpp/mo-message.ts) and the server face's submits
 * (smpp-server/submitted-text.ts). What each does with what it cannot read is its own: a reply is
 * stored whatever it holds (`lenient`), a submit is refused.
 */
import { decodeGsm7, decodeUcs2 } from '../segments/segments.js';
import type { ConcatPart } from '../messages/concat.js';

/** The data_coding values read as text: GSM 03.38, IA5 (ASCII), Latin-1, UCS-2. */
export const DATA_CODING = { GSM: 0, IA5: 1, LATIN1: 3, UCS2: 8 } as const;
export const TEXT_CODINGS: readonly number[] = Object.values(DATA_CODING);

export interface UserDataHeader {
  /** In octets, its length octet included: where the text starts. */
  length: number;
  elements: { iei: number; data: Uint8Array }[];
}

/** The header at the start of `bytes`; 'overrun' when it claims more octets than there are. */
export function readUdh(bytes: Uint8Array): UserDataHeader | 'overrun' | undefined {
  const udhl = bytes[0];
  if (udhl === undefined) return undefined;
  if (udhl + 1 > bytes.length) return 'overrun';
  const elements: UserDataHeader['elements'] = [];
  for (let i = 1; i + 1 <= udhl;) {
    const length = bytes[i + 1] ?? 0;
    elements.push({ iei: bytes[i] ?? 0, data: bytes.subarray(i + 2, i + 2 + length) });
    i += 2 + length;
  }
  return { length: udhl + 1, elements };
}

/** The part a header's concatenation element names: IEI 00 (8-bit ref) or 08 (16-bit ref). */
export function concatOfUdh(udh: UserDataHeader): ConcatPart | undefined {
  let part: ConcatPart | undefined;
  for (const { iei, data } of udh.elements) {
    const at = (n: number) => data[n] ?? 0;
    if (iei === 0x00 && data.length === 3) {
      part = { ref: at(0), total: at(1), seq: at(2), wide: false };
    } else if (iei === 0x08 && data.length === 4) {
      part = { ref: (at(0) << 8) | at(1), total: at(2), seq: at(3), wide: true };
    }
  }
  return part;
}

/** The part the SAR TLVs (SMPP 3.4 5.3.2.22 – 24) name, when they are there. */
export function concatOfSar(f: {
  sar_msg_ref_num?: unknown;
  sar_total_segments?: unknown;
  sar_segment_seqnum?: unknown;
}): ConcatPart | undefined {
  if (f.sar_msg_ref_num === undefined) return undefined;
  const ref = Number(f.sar_msg_ref_num);
  const total = Number(f.sar_total_segments);
  const seq = Number(f.sar_segment_seqnum);
  return { ref, total, seq, wide: ref > 0xff };
}

/** How GSM 03.38 text came: one septet an octet, or packed (8 septets in 7 octets). */
export interface Gsm7Form {
  packed: boolean;
  /** With `packed`: the user data whole (header included) and the septets the header fills. */
  raw?: Uint8Array;
  skipSeptets?: number;
}

/**
 * The text of `body` by data_coding. Strict (a submit): undefined for a coding not taken or
 * octets it cannot hold. Lenient (a reply): anything reads, as Latin-1 when the coding is not
 * one of TEXT_CODINGS, with an odd UCS-2 octet and GSM's eighth bit dropped.
 */
export function userText(
  body: Uint8Array,
  dcs: number,
  o: { lenient: boolean; gsm?: Gsm7Form },
): string | undefined {
  const latin1 = () => Buffer.from(body).toString('latin1');
  if (!TEXT_CODINGS.includes(dcs)) return o.lenient ? latin1() : undefined;
  try {
    if (dcs === DATA_CODING.UCS2) {
      const even = o.lenient && body.length % 2 ? body.subarray(0, body.length - 1) : body;
      return decodeUcs2(even);
    }
    if (dcs === DATA_CODING.LATIN1) return latin1();
    if (dcs === DATA_CODING.IA5)
      return !o.lenient && body.some((b) => b > 0x7f) ? undefined : latin1();
    if (o.gsm?.packed) return decodeGsm7(unpackSeptets(o.gsm.raw ?? body, o.gsm.skipSeptets));
    return decodeGsm7(o.lenient ? body.map((b) => b & 0x7f) : body);
  } catch {
    return undefined;
  }
}

/** GSM 7-bit default alphabet packing (TS 23.038 6.1.2.1.1): 8 septets in 7 octets. */
export function unpackSeptets(bytes: Uint8Array, skipSeptets = 0): Uint8Array {
  const count = Math.floor((bytes.length * 8) / 7);
  const out: number[] = [];
  for (let s = skipSeptets; s < count; s++) {
    const bit = s * 7;
    const byte = bit >> 3;
    const shift = bit & 7;
    const low = (bytes[byte] ?? 0) >> shift;
    const high = shift > 1 ? (bytes[byte + 1] ?? 0) << (8 - shift) : 0;
    out.push((low | high) & 0x7f);
  }
  // 7 octets hold 8 septets: when the last one is all padding it reads 0 ('@'), not text.
  if (bytes.length % 7 === 0 && out.at(-1) === 0) out.pop();
  return Uint8Array.from(out);
}
