import type { Command } from 'commander';
import { WirebirdError } from '../domain/errors.js';
import { accountOption, cliAudit, failOnError, withStore } from './open-store.js';

const clock = { now: () => Date.now() };

interface PolicyOptions {
  account: string;
  countries?: string;
  maxPerSecond?: string;
  dailyLimit?: string;
  recipientHourlyLimit?: string;
  prepaid?: string;
  config?: string;
}

/** A limit as typed: "none" removes it; anything else must read as a number (checked in core). */
function limit(raw: string | undefined, flag: string): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'none') return null;
  if (!/^-?\d+(\.\d+)?$/.test(raw)) {
    throw new WirebirdError('InvalidParameter', `${flag} must be a whole number, or none`);
  }
  return Number(raw);
}

/** The options given, as the change PUT /admin/accounts/:id/policy takes. */
function changeOf(o: PolicyOptions): Record<string, unknown> {
  const change: Record<string, unknown> = {};
  if (o.countries !== undefined) {
    change.Countries = o.countries === 'any' ? null : o.countries.split(',').filter((c) => c);
  }
  const limits = {
    MaxPerSecond: limit(o.maxPerSecond, '--max-per-second'),
    DailyLimit: limit(o.dailyLimit, '--daily-limit'),
    RecipientHourlyLimit: limit(o.recipientHourlyLimit, '--recipient-hourly-limit'),
  };
  for (const [field, v] of Object.entries(limits)) if (v !== undefined) change[field] = v;
  if (o.prepaid !== undefined) {
    if (o.prepaid !== 'on' && o.prepaid !== 'off') {
      throw new WirebirdError('InvalidParameter', '--prepaid must be on or off');
    }
    change.Prepaid = o.prepaid === 'on';
  }
  return change;
}

function show(answer: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(answer)) {
    const text = v === null ? 'none' : Array.isArray(v) ? v.join(',') : JSON.stringify(v);
    console.log(`${k.padEnd(21)} ${text.replace(/^"|"$/g, '')}`);
  }
}

/** `wirebird accounts policy|credit|credits`: account policy from the command line. */
export function registerPolicyCommands(accounts: Command): void {
  accounts
    .command('policy')
    .description("show an account's sending policy, or change it (docs/accounts.md)")
    .requiredOption('-a, --account <AccountId>', 'the account')
    .option('--countries <codes>', 'comma-separated ISO codes SMS may go to (US,GB), or any')
    .option('--max-per-second <n>', 'dispatch rate across all nodes, or none')
    .option('--daily-limit <n>', 'CostCount per UTC day, or none')
    .option('--recipient-hourly-limit <n>', 'messages to one number per hour, or none')
    .option('--prepaid <on|off>', 'pay each SMS from the balance at acceptance')
    .option('-c, --config <file>', 'a JSON config file')
    .addHelpText(
      'after',
      '\nExamples:\n  wirebird accounts policy --account 1\n  wirebird accounts policy --account 1 --countries US,GB --daily-limit 1000 --recipient-hourly-limit 5',
    )
    .action(async (opts: PolicyOptions) => {
      await withStore(opts.config, async (store) => {
        const { policyAnswer, updatePolicy } = await import('../core/account-policy.js');
        const accountId = accountOption(opts.account);
        const change = changeOf(opts);
        if (Object.keys(change).length === 0) {
          show(await policyAnswer({ store, clock }, accountId));
          return;
        }
        const answer = await updatePolicy({ store, clock }, accountId, change);
        await cliAudit(store, {
          action: 'account.policy_set',
          target: String(accountId),
          accountId,
          detail: change,
        });
        show(answer);
      }).catch(failOnError);
    });
  registerCreditCommands(accounts);
  registerLedgerCommand(accounts);
}

function registerCreditCommands(accounts: Command): void {
  accounts
    .command('credit')
    .description("add credit (CostCount units) to an account's ledger")
    .requiredOption('-a, --account <AccountId>', 'the account')
    .requiredOption('-n, --cost-count <n>', 'how many CostCount units')
    .requiredOption('-r, --reference <text>', 'your reference: an invoice, a payment')
    .option('--repeat-reference', 'add it even if this reference was credited before')
    .option('-c, --config <file>', 'a JSON config file')
    .addHelpText(
      'after',
      '\nExample:\n  wirebird accounts credit --account 1 --cost-count 1000 --reference inv-7',
    )
    .action(
      async (opts: {
        account: string;
        costCount: string;
        reference: string;
        repeatReference?: boolean;
        config?: string;
      }) => {
        await withStore(opts.config, async (store) => {
          const { addCredit } = await import('../core/account-policy.js');
          const accountId = accountOption(opts.account);
          const input = {
            CostCount: opts.costCount,
            Reference: opts.reference,
            RepeatReference: opts.repeatReference === true,
          };
          const answer = await addCredit({ store, clock }, accountId, input);
          await cliAudit(store, {
            action: 'account.credited',
            target: String(accountId),
            accountId,
            detail: { CostCount: answer.CostCount, Reference: opts.reference.trim() },
          });
          show(answer);
        }).catch(failOnError);
      },
    );
}

function registerLedgerCommand(accounts: Command): void {
  accounts
    .command('credits')
    .description("list an account's credit ledger, newest first")
    .requiredOption('-a, --account <AccountId>', 'the account')
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (opts: { account: string; config?: string }) => {
      await withStore(opts.config, async (store) => {
        const { ledgerPage } = await import('../core/account-policy.js');
        const page = await ledgerPage({ store, clock }, accountOption(opts.account), {
          limit: 100,
        });
        console.log(`Balance ${String(page.Balance)}`);
        // ledgerPage answers Entries as a list of these fields.
        for (const e of page.Entries as Record<string, unknown>[]) {
          const at = new Date(Number(e.CreateTime) * 1000).toISOString();
          console.log(
            `${at}  ${String(e.Kind).padEnd(6)}  ${String(e.CostCount).padStart(8)}  ${String(e.Reference)}`,
          );
        }
      }).catch(failOnError);
    });
}
