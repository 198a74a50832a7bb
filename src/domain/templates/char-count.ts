// The spec counts what a reader sees as one character, so code units and code points both
// overcount (👍🏽 is two code points, four UTF-16 units). A fixed locale keeps the count independent
// of the host; grapheme rules do not vary by locale anyway.
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Length as the spec counts it: each letter, digit, symbol, Chinese character or emoji counts one
 * (grapheme clusters, so 👍🏽, a ZWJ family or "\r\n" is one).
 */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of graphemes.segment(s)) n++;
  return n;
}
