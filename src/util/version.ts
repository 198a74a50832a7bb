import { readFileSync } from 'node:fs';

/** Wirebird's version, from package.json (dist/src/util/ → the project root). */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
