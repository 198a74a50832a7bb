/**
 * A Map with a ceiling: when full, the oldest entry goes. Insertion order (not recency) decides,
 * because refreshing recency on every hit would cost a delete and a set on the hot path, and a
 * number that keeps recurring is simply re-added after it ages out.
 */
export class BoundedCache<V> {
  readonly #entries = new Map<string, V>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('maxEntries must be a positive integer');
    }
    this.#maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  set(key: string, value: V): void {
    if (this.#entries.size >= this.#maxEntries && !this.#entries.has(key)) {
      // A Map iterates in insertion order, so its first key is the oldest.
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, value);
  }

  clear(): void {
    this.#entries.clear();
  }
}
