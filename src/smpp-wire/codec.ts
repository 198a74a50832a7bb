/**
 * A lean SMPP 3.4 codec for the PDUs in commands.ts: one pass over the bytes each way, octet
 * strings handed over as views of the bytes received (no copy, no decoding by data_coding: the
 * caller knows which alphabet it wants), and each PDU written into one buffer sized up front.
 * It reads what the `smpp` package reads and writes what it writes, byte for byte
 * (src/smpp-wire/codec.test.ts holds both to it), at a fraction of the cost: the package builds
 * an object per field and walks every field through a filter on every PDU.
 */
import {
  COMMANDS,
  COMMANDS_BY_ID,
  TLVS,
  TLVS_BY_TAG,
  type CommandDef,
  type CommandName,
  type FieldList,
  type TlvName,
  type TlvType,
} from './commands.js';
import { textOf } from '../util/unknown-values.js';

export const HEADER_BYTES = 16;

/** A PDU as read or to be written: the header, then its fields and TLVs by their SMPP names. */
export interface Pdu {
  command: CommandName | 'unknown';
  command_id: number;
  command_status: number;
  sequence_number: number;
  /**
   * Set on reading when the body does not fit its command_length: the first field (or TLV, or
   * `tlv`) that is missing or runs past the end. What was there is read all the same; a server
   * refuses such a request (SMPP 3.4 §5.1.3), a client may take a lenient SMSC's answer.
   */
  malformed?: string;
  [field: string]: unknown;
}

/** A PDU's fields by their SMPP names, as a sender fills them in. */
export type PduFields = Record<string, unknown>;

/** What a sender fills in: the command by name; the header's numbers default to 0. */
export interface OutPdu {
  command: CommandName;
  command_status?: number;
  sequence_number?: number;
  [field: string]: unknown;
}

/** One entry of submit_multi's dest_address: an SME address, or a distribution list's name. */
export interface DestAddress {
  dest_addr_ton?: number;
  dest_addr_npi?: number;
  destination_addr?: string;
  dl_name?: string;
}

export interface UnsuccessSme {
  dest_addr_ton: number;
  dest_addr_npi: number;
  destination_addr: string;
  error_status_code: number;
}

/** Reads one whole PDU (`bytes` is exactly command_length long). Never throws on a bad body. */
export function decodePdu(bytes: Buffer): Pdu {
  const commandId = bytes.readUInt32BE(4);
  const def = COMMANDS_BY_ID.get(commandId);
  const pdu: Pdu = {
    command: def ? def.name : 'unknown',
    command_id: commandId,
    command_status: bytes.readUInt32BE(8),
    sequence_number: bytes.readUInt32BE(12),
  };
  if (!def) return pdu;
  const reader: Reader = { bytes, at: HEADER_BYTES, end: bytes.length };
  readFields(reader, def.fields, pdu);
  readTlvs(reader, pdu);
  if (reader.fault !== undefined) pdu.malformed = reader.fault;
  return pdu;
}

interface Reader {
  bytes: Buffer;
  at: number;
  end: number;
  /** The first field found missing or running past `end`. */
  fault?: string;
}

/** Notes the first field that does not fit (the reader goes on: the loops end by `end`). */
function overrun(r: Reader, name: string): void {
  r.fault ??= name;
}

/**
 * Mandatory fields in order; a body that ends early leaves the rest out (as the package does)
 * and is noted as malformed, a response with an error status aside (§4: it has no body).
 */
function readFields(r: Reader, fields: FieldList, pdu: Pdu): void {
  for (const [name, type] of fields) {
    if (r.at >= r.end) {
      if (pdu.command_status === 0) overrun(r, name);
      return;
    }
    switch (type) {
      case 'int8':
        pdu[name] = r.bytes[r.at++];
        break;
      case 'cstring':
        pdu[name] = cstring(r, name);
        break;
      case 'sm': {
        const length = r.bytes[r.at++] ?? 0;
        if (r.at + length > r.end) overrun(r, name);
        pdu[name] = r.bytes.subarray(r.at, Math.min(r.at + length, r.end));
        r.at += length;
        break;
      }
      case 'dests':
        pdu[name] = dests(r);
        break;
      case 'unsuccess':
        pdu[name] = unsuccess(r);
        break;
    }
  }
}

/** A C-Octet String: up to its NUL, or to the end of the PDU when the NUL is missing. */
function cstring(r: Reader, name: string): string {
  let nul = r.bytes.indexOf(0, r.at);
  if (nul < 0 || nul >= r.end) {
    overrun(r, name);
    nul = r.end;
  }
  const value = r.bytes.toString('latin1', r.at, nul);
  r.at = nul + 1;
  return value;
}

/** An octet, or 0 past the end of the PDU (the reader still moves on, so the loops end). */
function int8(r: Reader, name: string): number {
  if (r.at >= r.end) overrun(r, name);
  const value = r.at < r.end ? (r.bytes[r.at] ?? 0) : 0;
  r.at++;
  return value;
}

function dests(r: Reader): DestAddress[] {
  const out: DestAddress[] = [];
  let n = int8(r, 'number_of_dests');
  for (; n > 0 && r.at < r.end; n--) {
    if (int8(r, 'dest_flag') === 1) {
      const ton = int8(r, 'dest_addr_ton');
      const npi = int8(r, 'dest_addr_npi');
      const addr = cstring(r, 'destination_addr');
      out.push({ dest_addr_ton: ton, dest_addr_npi: npi, destination_addr: addr });
    } else {
      out.push({ dl_name: cstring(r, 'dl_name') });
    }
  }
  if (n > 0) overrun(r, 'dest_address');
  return out;
}

function unsuccess(r: Reader): UnsuccessSme[] {
  const out: UnsuccessSme[] = [];
  for (let n = int8(r, 'no_unsuccess'); n > 0 && r.at < r.end; n--) {
    const ton = int8(r, 'dest_addr_ton');
    const npi = int8(r, 'dest_addr_npi');
    const addr = cstring(r, 'destination_addr');
    if (r.at + 4 > r.end) overrun(r, 'error_status_code');
    const code = r.at + 4 <= r.end ? r.bytes.readUInt32BE(r.at) : 0;
    r.at += 4;
    out.push({
      dest_addr_ton: ton,
      dest_addr_npi: npi,
      destination_addr: addr,
      error_status_code: code,
    });
  }
  return out;
}

/**
 * The TLVs after the mandatory fields: the known ones by name, the others skipped. A value that
 * runs past the PDU, or one to three octets left over, is noted as malformed.
 */
function readTlvs(r: Reader, pdu: Pdu): void {
  while (r.at + 4 <= r.end) {
    const tag = r.bytes.readUInt16BE(r.at);
    const length = r.bytes.readUInt16BE(r.at + 2);
    const start = r.at + 4;
    const stop = Math.min(start + length, r.end);
    r.at = start + length;
    const tlv = TLVS_BY_TAG.get(tag);
    if (start + length > r.end) overrun(r, tlv?.name ?? 'tlv');
    if (tlv) pdu[tlv.name] = tlvValue(r.bytes, start, stop, tlv.type);
  }
  if (r.at < r.end) overrun(r, 'tlv');
}

function tlvValue(bytes: Buffer, start: number, stop: number, type: TlvType): unknown {
  switch (type) {
    case 'int8':
      return bytes[start] ?? 0;
    case 'int16':
      return stop - start >= 2 ? bytes.readUInt16BE(start) : (bytes[start] ?? 0);
    case 'cstring': {
      const nul = bytes.indexOf(0, start);
      return bytes.toString('latin1', start, nul < 0 || nul > stop ? stop : nul);
    }
    case 'octets':
      return bytes.subarray(start, stop);
  }
}

/** Writes a PDU. A response with a non-zero command_status is its header alone (§4: no body). */
export function encodePdu(pdu: OutPdu): Buffer {
  const def = COMMANDS.get(pdu.command);
  if (!def) throw new Error(`${pdu.command} is not a command this codec writes`);
  const status = pdu.command_status ?? 0;
  const bare = status !== 0 && def.id >= 0x80000000;
  const length = bare ? HEADER_BYTES : HEADER_BYTES + bodySize(def, pdu);
  const bytes = Buffer.allocUnsafe(length);
  bytes.writeUInt32BE(length, 0);
  bytes.writeUInt32BE(def.id, 4);
  bytes.writeUInt32BE(status, 8);
  bytes.writeUInt32BE(pdu.sequence_number ?? 0, 12);
  if (!bare) writeTlvs(bytes, writeFields(bytes, def.fields, pdu), def.tlvs, pdu);
  return bytes;
}

type Octets = string | Buffer | Uint8Array;

function octets(value: unknown): Octets {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || value instanceof Uint8Array) return value;
  return textOf(value);
}

function bodySize(def: CommandDef, pdu: OutPdu): number {
  let size = 0;
  for (const [name, type] of def.fields) size += fieldSize(type, pdu[name]);
  for (const name of def.tlvs) {
    const value = pdu[name];
    if (value !== undefined) size += 4 + tlvSize(TLVS[name].type, value);
  }
  return size;
}

function fieldSize(type: FieldList[number][1], value: unknown): number {
  switch (type) {
    case 'int8':
      return 1;
    case 'cstring':
      return octets(value).length + 1;
    case 'sm':
      return octets(value).length + 1;
    case 'dests':
      return listOf<DestAddress>(value).reduce(
        (n, d) =>
          n +
          (d.dl_name !== undefined ? 2 + d.dl_name.length : 4 + octets(d.destination_addr).length),
        1,
      );
    case 'unsuccess':
      return listOf<UnsuccessSme>(value).reduce(
        (n, u) => n + 7 + octets(u.destination_addr).length,
        1,
      );
  }
}

function tlvSize(type: TlvType, value: unknown): number {
  if (type === 'int8') return 1;
  if (type === 'int16') return 2;
  return octets(value).length + (type === 'cstring' ? 1 : 0);
}

// The codec itself wrote these lists with elements of T.
const listOf = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

function writeFields(bytes: Buffer, fields: FieldList, pdu: OutPdu): number {
  let at = HEADER_BYTES;
  for (const [name, type] of fields) {
    const value = pdu[name];
    switch (type) {
      case 'int8':
        at = bytes.writeUInt8(Number(value ?? 0) & 0xff, at);
        break;
      case 'cstring':
        at = putCstring(bytes, at, octets(value));
        break;
      case 'sm':
        at = putSm(bytes, at, octets(value));
        break;
      case 'dests':
        at = putDests(bytes, at, listOf<DestAddress>(value));
        break;
      case 'unsuccess':
        at = putUnsuccess(bytes, at, listOf<UnsuccessSme>(value));
        break;
    }
  }
  return at;
}

function putOctets(bytes: Buffer, at: number, value: Octets): number {
  if (typeof value === 'string') return at + bytes.write(value, at, 'latin1');
  bytes.set(value, at);
  return at + value.length;
}

function putCstring(bytes: Buffer, at: number, value: Octets): number {
  const end = putOctets(bytes, at, value);
  bytes[end] = 0;
  return end + 1;
}

function putSm(bytes: Buffer, at: number, value: Octets): number {
  if (value.length > 255) {
    throw new RangeError(
      `short_message of ${value.length} octets: at most 255, or message_payload`,
    );
  }
  bytes[at] = value.length;
  return putOctets(bytes, at + 1, value);
}

function putDests(bytes: Buffer, at: number, list: DestAddress[]): number {
  bytes[at++] = list.length;
  for (const d of list) {
    if (d.dl_name !== undefined) {
      bytes[at++] = 2;
      at = putCstring(bytes, at, d.dl_name);
      continue;
    }
    bytes[at++] = 1;
    bytes[at++] = d.dest_addr_ton ?? 0;
    bytes[at++] = d.dest_addr_npi ?? 0;
    at = putCstring(bytes, at, octets(d.destination_addr));
  }
  return at;
}

function putUnsuccess(bytes: Buffer, at: number, list: UnsuccessSme[]): number {
  bytes[at++] = list.length;
  for (const u of list) {
    bytes[at++] = u.dest_addr_ton;
    bytes[at++] = u.dest_addr_npi;
    at = putCstring(bytes, at, octets(u.destination_addr));
    at = bytes.writeUInt32BE(u.error_status_code >>> 0, at);
  }
  return at;
}

function writeTlvs(bytes: Buffer, at: number, names: readonly TlvName[], pdu: OutPdu): void {
  for (const name of names) {
    const value = pdu[name];
    if (value === undefined) continue;
    const { tag, type } = TLVS[name];
    const size = tlvSize(type, value);
    if (size > 0xffff) throw new RangeError(`${name} of ${size} octets: at most 65535`);
    at = bytes.writeUInt16BE(tag, at);
    at = bytes.writeUInt16BE(size, at);
    if (type === 'int8') at = bytes.writeUInt8(Number(value) & 0xff, at);
    else if (type === 'int16') at = bytes.writeUInt16BE(Number(value) & 0xffff, at);
    else if (type === 'cstring') at = putCstring(bytes, at, octets(value));
    else at = putOctets(bytes, at, octets(value));
  }
}
