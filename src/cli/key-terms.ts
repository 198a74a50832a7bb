import type { Command } from 'commander';
import type { KeyTerms } from '../core/api-keys.js';
import { checkExpiry, checkKeyName, checkScopes } from '../domain/keys/key-record.js';

/** The flags every credential is created with: its key record's name, scopes and expiry. */
export interface TermsFlags {
  name?: string;
  scopes?: string;
  expires?: string;
}

/**
 * Adds --name, --scopes and --expires to a create command; with `short`, -n, -s and -e too
 * (not where those letters already mean something else).
 */
export function withTermsFlags(command: Command, what: string, short = true): Command {
  const flag = (letter: string, long: string) => (short ? `-${letter}, ${long}` : long);
  return command
    .option(flag('n', '--name <name>'), `a name to tell the ${what} by`)
    .option(
      flag('s', '--scopes <list>'),
      'send, read, templates, comma-separated (none: every Action)',
    )
    .option(flag('e', '--expires <seconds>'), `Unix seconds after which the ${what} is refused`);
}

/** The record terms the flags give, checked, each refusal naming its flag. */
export function termsOfFlags(f: TermsFlags, now: number): KeyTerms {
  return {
    source: 'cli',
    ...(f.name === undefined ? {} : { name: checkKeyName(f.name, '--name') }),
    ...(f.scopes === undefined
      ? {}
      : { scopes: checkScopes(f.scopes.split(',').filter(Boolean), '--scopes') }),
    ...(f.expires === undefined
      ? {}
      : { expiresAt: checkExpiry(Number(f.expires), now, '--expires') }),
  };
}
