/** A mistake the person running the CLI can fix; printed as one line, without a stack trace. */
export class CliError extends Error {}
