/**
 * One part of a concatenated SMS whose parts an ESME submitted itself (docs/smpp-server.md):
 * the reference, count and number the ESME chose, carried to the channel unchanged so that the
 * phone joins the parts into one message, while each part keeps its own id and receipt.
 */
export interface ConcatPart {
  ref: number;
  total: number;
  seq: number;
  /** A 16-bit reference (UDH IEI 08) rather than an 8-bit one (IEI 00). */
  wide: boolean;
}

/** As a message row keeps it: `ref/total/seq/8` or `…/16`. */
export function concatText(c: ConcatPart): string {
  return `${c.ref}/${c.total}/${c.seq}/${c.wide ? 16 : 8}`;
}

export function concatOf(text: string | null | undefined): ConcatPart | undefined {
  if (!text) return undefined;
  const [ref, total, seq, bits] = text.split('/').map(Number);
  if (ref === undefined || total === undefined || seq === undefined) return undefined;
  return { ref, total, seq, wide: bits === 16 };
}

/** Whether the numbers make a part: a count of 2 to 255, a number within it, a reference in range. */
export function isConcatPart(c: ConcatPart): boolean {
  const refMax = c.wide ? 0xffff : 0xff;
  return (
    Number.isInteger(c.ref) &&
    c.ref >= 0 &&
    c.ref <= refMax &&
    Number.isInteger(c.total) &&
    c.total >= 2 &&
    c.total <= 255 &&
    Number.isInteger(c.seq) &&
    c.seq >= 1 &&
    c.seq <= c.total
  );
}

/** The UDH that carries the part (its length octet first): 6 octets, or 7 for a 16-bit ref. */
export function concatUdhOf(c: ConcatPart): Uint8Array {
  return c.wide
    ? Uint8Array.from([0x06, 0x08, 0x04, c.ref >> 8, c.ref & 0xff, c.total, c.seq])
    : Uint8Array.from([0x05, 0x00, 0x03, c.ref, c.total, c.seq]);
}
