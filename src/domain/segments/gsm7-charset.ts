/**
 * The GSM 7-bit default alphabet of 3GPP TS 23.038 §6.2.1 and its extension table, as lookup
 * arrays: encoding and counting run for every message, so a char costs one array read.
 */

/** Septet that switches the next septet to the extension table. */
export const ESC = 0x1b;

/** Table value for a char outside the alphabet; real values are a septet, maybe | EXTENDED. */
export const NOT_GSM = 0xff;

/** Flag on a table value: the char is ESC + the low seven bits. */
export const EXTENDED = 0x80;

// Indexed by septet, sixteen a row. 0x09 is the capital Ç of the spec: unicode.org's
// GSM0338.TXT maps it to small ç, a known erratum that other libraries copied.
// prettier-ignore
const BASIC: readonly string[] = [
  '@', '£', '$', '¥', 'è', 'é', 'ù', 'ì', 'ò', 'Ç', '\n', 'Ø', 'ø', '\r', 'Å', 'å', // 0x00
  'Δ', '_', 'Φ', 'Γ', 'Λ', 'Ω', 'Π', 'Ψ', 'Σ', 'Θ', 'Ξ', '\x1b', 'Æ', 'æ', 'ß', 'É', // 0x10
  ' ', '!', '"', '#', '¤', '%', '&', "'", '(', ')', '*', '+', ',', '-', '.', '/', // 0x20
  '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?', // 0x30
  '¡', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', // 0x40
  'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'Ä', 'Ö', 'Ñ', 'Ü', '§', // 0x50
  '¿', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', // 0x60
  'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'ä', 'ö', 'ñ', 'ü', 'à', // 0x70
];

// Septet after ESC → char. 0x0D (CR2) and 0x1B (SS2) are reserved controls with no Unicode
// counterpart, so they are left out and decode by the fallback rules below.
const EXTENSION: ReadonlyArray<readonly [number, string]> = [
  [0x0a, '\f'],
  [0x14, '^'],
  [0x28, '{'],
  [0x29, '}'],
  [0x2f, '\\'],
  [0x3c, '['],
  [0x3d, '~'],
  [0x3e, ']'],
  [0x40, '|'],
  [0x65, '€'],
];

function charCode(ch: string): number {
  return ch.charCodeAt(0);
}

/** The highest char code in either table (€, U+20AC); every code above it is not GSM. */
const MAX_GSM_CHAR = EXTENSION.reduce(
  (max, [, ch]) => Math.max(max, charCode(ch)),
  BASIC.reduce((max, ch) => Math.max(max, charCode(ch)), 0),
);

function buildEncodeTable(): Uint8Array {
  const table = new Uint8Array(MAX_GSM_CHAR + 1).fill(NOT_GSM);
  BASIC.forEach((ch, septet) => {
    table[charCode(ch)] = septet;
  });
  // ESC in the text would let a caller smuggle in an arbitrary extension code; it is not a char.
  table[ESC] = NOT_GSM;
  for (const [septet, ch] of EXTENSION) table[charCode(ch)] = EXTENDED | septet;
  return table;
}

const ENCODE = buildEncodeTable();

/** The table value of a UTF-16 code unit: a septet, EXTENDED | septet, or NOT_GSM. */
export function gsmValue(code: number): number {
  return code <= MAX_GSM_CHAR ? (ENCODE[code] ?? NOT_GSM) : NOT_GSM;
}

/** Char code of each basic septet. ESC alone reads as a space, as §6.2.1 tells a receiver. */
export const BASIC_DECODE: Uint16Array = Uint16Array.from(BASIC, (ch) =>
  ch === '\x1b' ? 0x20 : charCode(ch),
);

function buildExtensionDecode(): Uint16Array {
  // §6.2.1.1: a code the extension table lacks is shown as its basic-table char; SS2 (ESC ESC)
  // is shown as a space until a further table is defined.
  const table = BASIC_DECODE.slice();
  for (const [septet, ch] of EXTENSION) table[septet] = charCode(ch);
  return table;
}

/** Char code of each septet that follows ESC. */
export const EXTENSION_DECODE: Uint16Array = buildExtensionDecode();
