/**
 * SMS segmentation and the two wire alphabets (3GPP TS 23.038): which encoding a text needs,
 * how many parts it costs (the spec's CostCount) and where those parts are cut.
 * Runs for every message, so each function walks the text once or twice with table lookups.
 */
import { invalid, type WirebirdError } from '../errors.js';
import {
  BASIC_DECODE,
  ESC,
  EXTENDED,
  EXTENSION_DECODE,
  NOT_GSM,
  gsmValue,
} from './gsm7-charset.js';

export type SmsEncoding = 'gsm7' | 'ucs2';

export interface Segmented {
  encoding: SmsEncoding;
  parts: string[];
}

/** Units (septets or UTF-16 code units) in a message sent whole. */
const SINGLE_CAPACITY: Readonly<Record<SmsEncoding, number>> = { gsm7: 160, ucs2: 70 };

/** Units left per part once the 6-byte UDH with an 8-bit concat reference is taken. */
const PART_CAPACITY: Readonly<Record<SmsEncoding, number>> = { gsm7: 153, ucs2: 67 };

/** Septets a GSM text needs (extension chars count 2); undefined if not GSM. */
export function gsm7Length(text: string): number | undefined {
  let septets = 0;
  for (let i = 0; i < text.length; i++) {
    const value = gsmValue(text.charCodeAt(i));
    if (value === NOT_GSM) return undefined;
    septets += 1 + (value >>> 7);
  }
  return septets;
}

export function encodingOf(text: string): SmsEncoding {
  return gsm7Length(text) === undefined ? 'ucs2' : 'gsm7';
}

/** Number of SMS parts the text needs: the spec's CostCount. Always equals splitSegments(text).parts.length. Empty text costs 1. */
export function costCount(text: string): number {
  const septets = gsm7Length(text);
  if (septets === undefined) {
    return text.length <= SINGLE_CAPACITY.ucs2 ? 1 : cutUcs2(text, PART_CAPACITY.ucs2);
  }
  return septets <= SINGLE_CAPACITY.gsm7 ? 1 : cutGsm7(text, PART_CAPACITY.gsm7);
}

/**
 * Splits text into the parts that go on the wire. One part when it fits the single-message
 * capacity; otherwise parts of at most `perPart` units (default 153 septets for gsm7, 67 code
 * units for ucs2; a caller using a 16-bit concat reference passes 152/66). `encoding` forces
 * one (e.g. 'ucs2'); forcing gsm7 on text that is not GSM throws.
 * `perPart` is in the units of the resolved encoding, so a caller passing it should also pass
 * `encoding`; a `perPart` above that encoding's single capacity throws rather than yield parts
 * too long for the wire.
 */
export function splitSegments(
  text: string,
  options?: { encoding?: SmsEncoding; perPart?: number },
): Segmented {
  const septets = gsm7Length(text);
  const encoding = options?.encoding ?? (septets === undefined ? 'ucs2' : 'gsm7');
  const perPart = checkedPerPart(encoding, options?.perPart);
  if (encoding === 'gsm7' && septets === undefined) throw notGsm(text);
  const units = encoding === 'gsm7' ? (septets ?? 0) : text.length;
  if (units <= SINGLE_CAPACITY[encoding]) return { encoding, parts: [text] };
  const cuts: number[] = [];
  if (encoding === 'gsm7') cutGsm7(text, perPart, cuts);
  else cutUcs2(text, perPart, cuts);
  return { encoding, parts: sliceAt(text, cuts) };
}

function checkedPerPart(encoding: SmsEncoding, perPart: number | undefined): number {
  if (perPart === undefined) return PART_CAPACITY[encoding];
  // Below 2 an ESC pair or a surrogate pair could never fit in a part.
  const max = SINGLE_CAPACITY[encoding];
  if (!Number.isInteger(perPart) || perPart < 2 || perPart > max) {
    throw new RangeError(`perPart for ${encoding} must be an integer from 2 to ${max}`);
  }
  return perPart;
}

/**
 * Greedy packing of a GSM text into parts of `perPart` septets; returns the part count and,
 * when asked, the char indices where parts start. An extension char costs 2 and is never cut,
 * so a part may end one septet short. Assumes every char is GSM.
 */
function cutGsm7(text: string, perPart: number, cuts?: number[]): number {
  let parts = 1;
  let fill = 0;
  for (let i = 0; i < text.length; i++) {
    const cost = 1 + (gsmValue(text.charCodeAt(i)) >>> 7);
    if (fill + cost > perPart) {
      parts++;
      fill = 0;
      cuts?.push(i);
    }
    fill += cost;
  }
  return parts;
}

/** As cutGsm7 for UTF-16 code units: a surrogate pair counts 2 and is never cut. */
function cutUcs2(text: string, perPart: number, cuts?: number[]): number {
  let parts = 1;
  let fill = 0;
  for (let i = 0; i < text.length;) {
    const cost = isSurrogatePairAt(text, i) ? 2 : 1;
    if (fill + cost > perPart) {
      parts++;
      fill = 0;
      cuts?.push(i);
    }
    fill += cost;
    i += cost;
  }
  return parts;
}

function isSurrogatePairAt(text: string, i: number): boolean {
  const high = text.charCodeAt(i);
  if (high < 0xd800 || high > 0xdbff) return false;
  const low = text.charCodeAt(i + 1);
  return low >= 0xdc00 && low <= 0xdfff;
}

function sliceAt(text: string, cuts: readonly number[]): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    parts.push(text.slice(start, cut));
    start = cut;
  }
  parts.push(text.slice(start));
  return parts;
}

/** GSM 03.38 unpacked: one septet per byte, extension chars as 0x1B + code. Throws on a char that is not GSM. */
export function encodeGsm7(text: string): Uint8Array {
  const septets = gsm7Length(text);
  if (septets === undefined) throw notGsm(text);
  const out = new Uint8Array(septets);
  let j = 0;
  for (let i = 0; i < text.length; i++) {
    const value = gsmValue(text.charCodeAt(i));
    if (value & EXTENDED) {
      out[j++] = ESC;
      out[j++] = value & ~EXTENDED;
    } else {
      out[j++] = value;
    }
  }
  return out;
}

/**
 * Reads unpacked septets. ESC before a code the extension table lacks yields the basic char, and
 * a trailing ESC a space, as TS 23.038 tells a receiver to show them. Throws on a byte above 0x7F.
 */
export function decodeGsm7(bytes: Uint8Array): string {
  const codes: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const septet = septetAt(bytes, i);
    if (septet === ESC && i + 1 < bytes.length) {
      codes.push(EXTENSION_DECODE[septetAt(bytes, ++i)] ?? 0);
    } else {
      codes.push(BASIC_DECODE[septet] ?? 0);
    }
  }
  return fromCharCodes(codes);
}

function septetAt(bytes: Uint8Array, i: number): number {
  const byte = bytes[i] ?? 0;
  if (byte > 0x7f) throw invalid('bytes', `hold 0x${hex(byte, 2)} at ${i}, not a septet`);
  return byte;
}

/** UTF-16 big-endian. */
export function encodeUcs2(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[2 * i] = code >>> 8;
    out[2 * i + 1] = code & 0xff;
  }
  return out;
}

/** UTF-16 big-endian. Lone surrogates pass through, so any text round-trips. Throws on an odd length. */
export function decodeUcs2(bytes: Uint8Array): string {
  if (bytes.length % 2 !== 0) throw invalid('bytes', `have odd length ${bytes.length} for UCS-2`);
  const codes: number[] = [];
  for (let i = 0; i < bytes.length; i += 2) {
    codes.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  }
  return fromCharCodes(codes);
}

/**
 * Chunked because fromCharCode takes its codes as arguments, and engines cap their count. A plain
 * array, not a Uint16Array: V8 spreads a typed array about ten times slower.
 */
const CHUNK = 8192;

function fromCharCodes(codes: number[]): string {
  if (codes.length <= CHUNK) return String.fromCharCode(...codes);
  let text = '';
  for (let start = 0; start < codes.length; start += CHUNK) {
    text += String.fromCharCode(...codes.slice(start, start + CHUNK));
  }
  return text;
}

function notGsm(text: string): WirebirdError {
  let i = 0;
  while (i < text.length && gsmValue(text.charCodeAt(i)) !== NOT_GSM) i++;
  const code = text.codePointAt(i) ?? 0;
  return invalid('text', `has U+${hex(code, 4)} at ${i}, outside the GSM 03.38 alphabet`);
}

function hex(value: number, digits: number): string {
  return value.toString(16).toUpperCase().padStart(digits, '0');
}
