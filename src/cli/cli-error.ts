/** A mistake the person running the CLI can fix; printed as one line, without a stack trace. */
export class CliError extends Error {}

/** "1 request", "2 requests": the CLI's counts read as sentences. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
