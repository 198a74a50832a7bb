/** The simulator's test suffixes (Fail, SubmitFail, never reported): a bench must not hit them. */
const TEST_SUFFIXES = new Set([1, 2, 3]);

/**
 * Distinct Chinese mobile numbers, +86 <prefix> then 8 digits counting up, skipping any that end
 * in a simulator test suffix. One sequence per prefix keeps every number of a run distinct.
 */
export class PhoneSequence {
  constructor(
    private readonly prefix: '138' | '139' = '138',
    private next = 0,
  ) {}

  take(count: number): string[] {
    const out: string[] = [];
    while (out.length < count) {
      const n = this.next++;
      if (n >= 100_000_000) throw new Error(`the +86 ${this.prefix} range is used up`);
      if (TEST_SUFFIXES.has(n % 10_000)) continue;
      out.push(`+86${this.prefix}${String(n).padStart(8, '0')}`);
    }
    return out;
  }
}
