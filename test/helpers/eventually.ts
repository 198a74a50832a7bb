/** Polls `probe` until it returns a value; for background work, never a timing assertion. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  limitMs = 15000,
): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
