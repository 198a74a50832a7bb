import { InvalidArgumentError, type Command } from 'commander';
import {
  credentialView,
  deleteCredential,
  saveCredential,
  type CredentialRequest,
} from '../core/smpp-credentials.js';
import { accountOption, cliAudit, failOnError, withStore } from './open-store.js';
import { termsOfFlags, withTermsFlags, type TermsFlags } from './key-terms.js';
import { recordsOf } from '../core/api-keys.js';
import { credentialHash } from '../domain/keys/key-record.js';

interface CreateFlags extends TermsFlags {
  account: string;
  systemId: string;
  password?: string;
  network?: string[];
  maxBinds?: number;
  maxTps?: number;
  window?: number;
  config?: string;
}

function whole(v: string): number {
  if (!/^\d{1,9}$/.test(v)) throw new InvalidArgumentError('must be a whole number');
  return Number(v);
}

const collect = (v: string, list: string[] = []) => [...list, v];

function requestOf(f: CreateFlags, now: number): CredentialRequest {
  const { systemId, password, maxBinds, maxTps, window } = f;
  const terms = termsOfFlags(f, now);
  return { systemId, password, allowedNetworks: f.network, maxBinds, maxTps, window, terms };
}

/** `wirebird keys smpp create|list|delete`: what ESMEs bind to the SMPP server with. */
export function registerSmppCredentials(keys: Command): void {
  const smpp = keys
    .command('smpp')
    .description('manage SMPP server credentials (docs/smpp-server.md)')
    .addHelpText('after', '\nExample:\n  wirebird keys smpp create --account 1 --system-id kannel');
  registerSmppCreate(smpp);
  registerSmppList(smpp);
  registerSmppDelete(smpp);
}

function registerSmppCreate(smpp: Command): void {
  const create = smpp
    .command('create')
    .description("create (or replace the account's own) system_id; the password is shown once")
    .requiredOption('-a, --account <AccountId>', 'the account the credential belongs to')
    .requiredOption('-s, --system-id <system_id>', 'up to 15 characters')
    .option('-p, --password <password>', 'up to 8 characters (made up when not given)');
  withTermsFlags(create, 'credential', false)
    .option('-n, --network <cidr>', 'a network binds may come from (repeatable)', collect)
    .option('--max-binds <n>', 'binds open at once (4)', whole)
    .option('--max-tps <n>', 'submits a second per bind (1000)', whole)
    .option('--window <n>', 'deliver_sm outstanding per bind (10)', whole)
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (f: CreateFlags) => {
      await withStore(f.config, async (store) => {
        const accountId = accountOption(f.account);
        const now = Date.now();
        const made = await saveCredential(store, accountId, requestOf(f, now), now);
        const { credential, password, record } = made;
        const fact = { action: 'smpp_credential.saved', target: credential.systemId, accountId };
        await cliAudit(store, { ...fact, detail: { KeyId: record.keyId, Scopes: record.scopes } });
        console.log(
          `AccountId  ${accountId}\nKeyId      ${record.keyId}\nsystem_id  ${credential.systemId}\npassword   ${password}\n` +
            '(shown once; Wirebird keeps only its hash)',
        );
      }).catch(failOnError);
    });
}

function registerSmppList(smpp: Command): void {
  smpp
    .command('list')
    .description("list an account's SMPP credentials (never their passwords)")
    .requiredOption('-a, --account <AccountId>', 'the account')
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (f: { account: string; config?: string }) => {
      await withStore(f.config, async (store) => {
        const accountId = accountOption(f.account);
        const list = await store.listSmppCredentials(accountId);
        const records = await recordsOf(store, accountId, 'smpp');
        if (list.length === 0) console.log('no SMPP credentials');
        for (const c of list) {
          const record = records.get(credentialHash('smpp', c.systemId));
          console.log(JSON.stringify(credentialView(c, record, Date.now())));
        }
      }).catch(failOnError);
    });
}

function registerSmppDelete(smpp: Command): void {
  smpp
    .command('delete')
    .description('delete a credential: new binds with it are refused')
    .requiredOption('-a, --account <AccountId>', 'the account')
    .requiredOption('-s, --system-id <system_id>', 'the credential to delete')
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (f: { account: string; systemId: string; config?: string }) => {
      await withStore(f.config, async (store) => {
        const accountId = accountOption(f.account);
        await deleteCredential(store, accountId, f.systemId);
        await cliAudit(store, { action: 'smpp_credential.deleted', target: f.systemId, accountId });
        console.log(`deleted ${f.systemId}`);
      }).catch(failOnError);
    });
}
