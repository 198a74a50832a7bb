import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  costCount,
  decodeGsm7,
  decodeUcs2,
  encodeGsm7,
  encodeUcs2,
  encodingOf,
  gsm7Length,
  splitSegments,
} from './segments.js';
import { WirebirdError } from '../errors.js';

const EMOJI = '😀';

const lengthsOf = (parts: readonly string[]): number[] => parts.map((p) => p.length);

function septetsOf(part: string): number {
  const n = gsm7Length(part);
  assert.notEqual(n, undefined, `part is not GSM: ${JSON.stringify(part)}`);
  return n ?? 0;
}

function assertNoLoneSurrogateAtEdges(parts: readonly string[]): void {
  for (const part of parts) {
    const last = part.charCodeAt(part.length - 1);
    const first = part.charCodeAt(0);
    assert.ok(!(last >= 0xd800 && last <= 0xdbff), 'part ends with a high surrogate');
    assert.ok(!(first >= 0xdc00 && first <= 0xdfff), 'part starts with a low surrogate');
  }
}

describe('encodingOf', () => {
  it('keeps basic-table accents and symbols in GSM', () => {
    for (const text of ['é', '@', '£', 'Ç', 'ñÑüÜäÄöÖ', 'ΔΦΓΛΩΠΨΣΘΞ', '¤§¿¡à', 'Hello\r\n']) {
      assert.equal(encodingOf(text), 'gsm7', text);
    }
  });

  it('keeps extension chars in GSM', () => {
    assert.equal(encodingOf('^{}\\[~]|€\f'), 'gsm7');
  });

  it('sends lowercase ç as UCS-2: 0x09 is capital Ç', () => {
    assert.equal(encodingOf('ç'), 'ucs2');
    assert.equal(encodingOf('Ça va'), 'gsm7');
  });

  it('sends chars outside both tables as UCS-2', () => {
    for (const text of ['你好世界', EMOJI, 'á', '`', 'ê', '\t', '\x1b', 'Ä€ ₹']) {
      assert.equal(encodingOf(text), 'ucs2', JSON.stringify(text));
    }
  });

  it('calls empty text GSM', () => {
    assert.equal(encodingOf(''), 'gsm7');
  });
});

describe('gsm7Length', () => {
  it('counts extension chars as two septets', () => {
    assert.equal(gsm7Length('abc'), 3);
    assert.equal(gsm7Length('{€}'), 6);
    assert.equal(gsm7Length(''), 0);
  });

  it('is undefined for non-GSM text', () => {
    assert.equal(gsm7Length('abcç'), undefined);
  });
});

describe('costCount and splitSegments at the GSM edges', () => {
  const cases: ReadonlyArray<[number, number]> = [
    [0, 1],
    [1, 1],
    [160, 1],
    [161, 2],
    [306, 2],
    [307, 3],
    [459, 3],
    [460, 4],
  ];
  for (const [length, parts] of cases) {
    it(`${length} GSM chars cost ${parts}`, () => {
      const text = 'a'.repeat(length);
      const split = splitSegments(text);
      assert.equal(costCount(text), parts);
      assert.equal(split.encoding, 'gsm7');
      assert.equal(split.parts.length, parts);
      assert.equal(split.parts.join(''), text);
    });
  }

  it('cuts multipart GSM into 153-septet parts', () => {
    const { parts } = splitSegments('a'.repeat(161));
    assert.deepEqual(lengthsOf(parts), [153, 8]);
  });

  it('counts an extension char as 2 septets toward the single capacity', () => {
    const text = 'a'.repeat(159) + '€';
    assert.equal(gsm7Length(text), 161);
    assert.equal(costCount(text), 2);
    assert.equal(splitSegments(text).parts.length, 2);
    assert.equal(costCount('a'.repeat(158) + '€'), 1);
  });

  it('moves an extension char straddling the 153 boundary whole into the next part', () => {
    const text = 'a'.repeat(152) + '{' + 'b'.repeat(20);
    const { parts } = splitSegments(text);
    assert.equal(parts.length, 2);
    assert.equal(parts[0], 'a'.repeat(152));
    assert.ok(parts[1]?.startsWith('{'));
    for (const part of parts) assert.ok(septetsOf(part) <= 153);
    assert.equal(parts.join(''), text);
  });

  it('packs only extension chars without splitting an ESC pair', () => {
    const text = '€'.repeat(200); // 400 septets: 76 chars (152 septets) a part
    const { parts } = splitSegments(text);
    assert.deepEqual(lengthsOf(parts), [76, 76, 48]);
    assert.equal(costCount(text), 3);
  });
});

describe('costCount and splitSegments at the UCS-2 edges', () => {
  const cases: ReadonlyArray<[number, number]> = [
    [70, 1],
    [71, 2],
    [134, 2],
    [135, 3],
  ];
  for (const [length, parts] of cases) {
    it(`${length} UCS-2 code units cost ${parts}`, () => {
      const text = 'ç' + 'a'.repeat(length - 1);
      const split = splitSegments(text);
      assert.equal(costCount(text), parts);
      assert.equal(split.encoding, 'ucs2');
      assert.equal(split.parts.length, parts);
      assert.equal(split.parts.join(''), text);
    });
  }

  it('keeps a surrogate pair whole across the 67 boundary', () => {
    const text = 'a'.repeat(69) + EMOJI;
    assert.equal(text.length, 71);
    const split = splitSegments(text);
    assert.equal(split.encoding, 'ucs2');
    assert.equal(split.parts.length, 2);
    assert.equal(costCount(text), 2);
    assertNoLoneSurrogateAtEdges(split.parts);
    assert.equal(split.parts.join(''), text);
  });

  it('moves an emoji straddling the boundary into the next part', () => {
    const text = 'a'.repeat(66) + EMOJI + 'a'.repeat(10);
    const { parts } = splitSegments(text);
    assert.equal(parts[0], 'a'.repeat(66));
    assert.ok(parts[1]?.startsWith(EMOJI));
    assertNoLoneSurrogateAtEdges(parts);
  });

  it('sends 35 emoji (70 code units) as one part', () => {
    const text = EMOJI.repeat(35);
    assert.equal(costCount(text), 1);
    assert.deepEqual(splitSegments(text), { encoding: 'ucs2', parts: [text] });
  });

  it('packs 36 emoji as 33 + 3, never half an emoji', () => {
    const { parts } = splitSegments(EMOJI.repeat(36));
    assert.deepEqual(lengthsOf(parts), [66, 6]);
    assertNoLoneSurrogateAtEdges(parts);
  });

  it('sends Chinese text as UCS-2', () => {
    const text = '短信网关测试'.repeat(20); // 120 code units
    const split = splitSegments(text);
    assert.equal(split.encoding, 'ucs2');
    assert.equal(split.parts.length, 2);
    assert.equal(split.parts.join(''), text);
  });
});

describe('splitSegments options', () => {
  it('forces UCS-2 on GSM text', () => {
    const split = splitSegments('a'.repeat(71), { encoding: 'ucs2' });
    assert.equal(split.encoding, 'ucs2');
    assert.equal(split.parts.length, 2);
  });

  it('refuses to force GSM on text that is not GSM', () => {
    assert.throws(() => splitSegments('ç', { encoding: 'gsm7' }), WirebirdError);
  });

  it('takes a smaller perPart for 16-bit concat references', () => {
    const gsm = splitSegments('a'.repeat(305), { encoding: 'gsm7', perPart: 152 });
    assert.deepEqual(lengthsOf(gsm.parts), [152, 152, 1]);
    const ucs = splitSegments(EMOJI.repeat(40), { encoding: 'ucs2', perPart: 66 });
    assert.deepEqual(lengthsOf(ucs.parts), [66, 14]);
  });

  it('keeps one part when the text fits, whatever perPart', () => {
    assert.equal(splitSegments('a'.repeat(160), { perPart: 152 }).parts.length, 1);
  });

  it('rejects a perPart the wire cannot carry', () => {
    assert.throws(() => splitSegments('ç', { perPart: 152 }), RangeError);
    assert.throws(() => splitSegments('a', { perPart: 1 }), RangeError);
    assert.throws(() => splitSegments('a', { perPart: 100.5 }), RangeError);
  });
});

describe('GSM 7-bit codec', () => {
  it('encodes basic chars as one septet and extension chars as ESC + code', () => {
    assert.deepEqual(encodeGsm7('@£{'), Uint8Array.of(0x00, 0x01, 0x1b, 0x28));
    assert.deepEqual(encodeGsm7('Ç€\f'), Uint8Array.of(0x09, 0x1b, 0x65, 0x1b, 0x0a));
    assert.deepEqual(encodeGsm7('à¿¡ÉΞ'), Uint8Array.of(0x7f, 0x60, 0x40, 0x1f, 0x1a));
  });

  it('throws on a char that is not GSM', () => {
    assert.throws(() => encodeGsm7('abç'), /U\+00E7 at 2/);
    assert.throws(() => encodeGsm7(EMOJI), /U\+1F600 at 0/);
  });

  it('round-trips every char of both tables', () => {
    const septets = Array.from({ length: 128 }, (_, i) => i).filter((i) => i !== 0x1b);
    const basic = decodeGsm7(Uint8Array.from(septets));
    assert.equal(new Set(basic).size, 127);
    const text = basic + '^{}\\[~]|€\f';
    assert.equal(gsm7Length(text), text.length + 10);
    assert.equal(decodeGsm7(encodeGsm7(text)), text);
  });

  it('decodes an unknown extension code as its basic char and a lone ESC as a space', () => {
    assert.equal(decodeGsm7(Uint8Array.of(0x1b, 0x41)), 'A');
    assert.equal(decodeGsm7(Uint8Array.of(0x61, 0x1b)), 'a ');
  });

  it('rejects a byte that is not a septet', () => {
    assert.throws(() => decodeGsm7(Uint8Array.of(0x41, 0x80)), WirebirdError);
  });
});

describe('UCS-2 codec', () => {
  it('writes UTF-16 big-endian', () => {
    assert.deepEqual(encodeUcs2(EMOJI), Uint8Array.of(0xd8, 0x3d, 0xde, 0x00));
    assert.deepEqual(encodeUcs2('Aé'), Uint8Array.of(0x00, 0x41, 0x00, 0xe9));
  });

  it('round-trips text, lone surrogates included', () => {
    for (const text of ['', 'Hello 你好 😀', '\ud83d', 'x'.repeat(20_000) + EMOJI]) {
      assert.equal(decodeUcs2(encodeUcs2(text)), text);
    }
  });

  it('rejects an odd byte count', () => {
    assert.throws(() => decodeUcs2(Uint8Array.of(0x00)), WirebirdError);
  });
});

describe('costCount agrees with splitSegments', () => {
  // Fixed-seed LCG (Numerical Recipes constants) so the inputs are the same on every run.
  function lcg(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state;
    };
  }
  const alphabet = ['a', 'Z', ' ', '€', '{', '|', 'é', '\n', 'ç', EMOJI, '中', 'Δ'];

  it('on 2000 generated texts, and parts rejoin to the text', () => {
    const next = lcg(0x5eed);
    for (let n = 0; n < 2000; n++) {
      const length = next() % 400;
      // Most texts draw only GSM chars, so both encodings get exercised.
      const pool = next() % 3 === 0 ? alphabet.length : 8;
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[next() % pool] ?? '';
      const split = splitSegments(text);
      assert.equal(costCount(text), split.parts.length, JSON.stringify(text));
      assert.equal(split.parts.join(''), text);
      const max = split.encoding === 'gsm7' ? 153 : 67;
      if (split.parts.length > 1) {
        for (const part of split.parts) {
          const units = split.encoding === 'gsm7' ? septetsOf(part) : part.length;
          assert.ok(units <= max && units > 0);
        }
        if (split.encoding === 'ucs2') assertNoLoneSurrogateAtEdges(split.parts);
      }
    }
  });
});
