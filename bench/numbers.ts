/** The simulator's test suffixes (Fail, SubmitFail, never reported): a bench must not hit them. */
const TEST_SUFFIXES = new Set([1, 2, 3]);

/**
 * An odd multiplier not divisible by 5: n → n × it mod 10^8 is a permutation of the 8 digits, so
 * scattered numbers stay distinct while landing far apart, as real recipients do.
 */
const SCATTER = 73_939_133;

/**
 * Distinct Chinese mobile numbers, +86 <prefix> then 8 digits counting up (or, `scattered`, the
 * same sequence spread over the range), skipping any that end in a simulator test suffix. One
 * sequence per prefix keeps every number of a run distinct.
 */
export class PhoneSequence {
  constructor(
    private readonly prefix: '138' | '139' = '138',
    private next = 0,
    private readonly order: 'ascending' | 'scattered' = 'ascending',
  ) {}

  take(count: number): string[] {
    const out: string[] = [];
    while (out.length < count) {
      const i = this.next++;
      if (i >= 100_000_000) throw new Error(`the +86 ${this.prefix} range is used up`);
      const n =
        this.order === 'ascending' ? i : Number((BigInt(i) * BigInt(SCATTER)) % 100_000_000n);
      if (TEST_SUFFIXES.has(n % 10_000)) continue;
      out.push(`+86${this.prefix}${String(n).padStart(8, '0')}`);
    }
    return out;
  }
}
