/** A configuration that cannot run, with what to fix (its own module: the CLI reads it cheaply). */
export class ConfigError extends Error {}
