import type { Command } from 'commander';
import { randomIds } from '../gateway/system-sources.js';
import {
  createEndpoint,
  deleteEndpoint,
  replay,
  sendTestEvent,
  updateEndpoint,
  type WebhookScope,
} from '../core/webhook-endpoints.js';
import { resolveGatewaySecret } from '../crypto/secret-files.js';
import type { Config } from '../config/config.js';
import { secretBox } from '../crypto/secret-box.js';
import type { Store } from '../domain/ports.js';
import { urlProblem } from '../outbox/address-guard.js';
import { newWebhookSecret } from '../outbox/signing.js';
import { CliError } from './cli-error.js';
import { accountOption, cliAudit, failOnError, withStore } from './open-store.js';
import { eventNumber, webhookId } from '../domain/events/event.js';

type Opts = { account: string; config?: string };

/**
 * The account's webhook scope from the CLI: the same rules as the Actions and the console. A
 * running gateway picks changes up within its poll; nothing needs nudging.
 */
function scopeOf(store: Store, config: Config, account: string): WebhookScope {
  const allowPrivate = config.webhooks.allowPrivate;
  return {
    store,
    clock: { now: () => Date.now() },
    newEndpointId: randomIds.endpointId,
    graceMs: config.webhooks.secretGraceMs,
    events: {
      box: secretBox(resolveGatewaySecret(config)),
      urlProblem: (url) => urlProblem(url, { allowPrivate }),
      newSecret: newWebhookSecret,
      // The CLI runs beside a gateway, not in it: the gateway reads endpoints within a second.
      nudge: () => undefined,
      endpointsChanged: () => undefined,
    },
    accountId: accountOption(account),
  };
}

const run = (opts: Opts, use: (s: WebhookScope) => Promise<void>) =>
  withStore(opts.config, (store, config) => use(scopeOf(store, config, opts.account))).catch(
    failOnError,
  );

function command(parent: Command, name: string, description: string): Command {
  return parent
    .command(name)
    .description(description)
    .requiredOption('-a, --account <AccountId>', 'the account')
    .option('-c, --config <file>', 'a JSON config file');
}

/** `wirebird webhooks …`: an account's endpoints and deliveries (docs/events.md). */
export function registerWebhooks(program: Command): void {
  const hooks = program
    .command('webhooks')
    .description("an account's webhook endpoints and deliveries");
  registerCreate(hooks);
  registerEndpointChanges(hooks);
  registerDeliveries(hooks);
}

function registerCreate(hooks: Command): void {
  command(hooks, 'create', 'add an endpoint; its signing secret is shown once')
    .requiredOption('-u, --url <url>', 'where events are POSTed')
    .option('-t, --types <list>', 'comma-separated event types (default: every type)')
    .option('-d, --description <text>', 'a note for people')
    .addHelpText(
      'after',
      '\nExample:\n  wirebird webhooks create --account 1 --url https://app.example.com/wirebird',
    )
    .action((opts: Opts & { url: string; types?: string; description?: string }) =>
      run(opts, async (s) => {
        const { endpoint, secret } = await createEndpoint(s, {
          url: opts.url,
          ...(opts.types ? { eventTypes: opts.types.split(',').map((t) => t.trim()) } : {}),
          ...(opts.description ? { description: opts.description } : {}),
        });
        const fact = {
          action: 'webhook.created',
          target: endpoint.endpointId,
          accountId: s.accountId,
        };
        await cliAudit(s.store, { ...fact, detail: { Url: endpoint.url } });
        console.log(`EndpointId  ${endpoint.endpointId}\nSecret      ${secret}\n(shown once)`);
      }),
    );
}

function registerEndpointChanges(hooks: Command): void {
  command(hooks, 'list', "list the account's endpoints").action((opts: Opts) =>
    run(opts, async (s) => {
      const list = await s.store.listEndpoints(s.accountId);
      if (list.length === 0) console.log('no endpoints');
      for (const e of list) {
        const state = e.disabled ? `disabled (${e.disabledReason})` : 'enabled';
        const types = e.eventTypes.length === 0 ? 'all' : e.eventTypes.join(',');
        console.log(`${e.endpointId}\t${state}\t${types}\t${e.url}`);
      }
    }),
  );
  for (const [verb, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    command(hooks, verb, `${verb} an endpoint`)
      .requiredOption('-e, --endpoint <EndpointId>', 'the endpoint')
      .action((opts: Opts & { endpoint: string }) =>
        run(opts, async (s) => {
          await updateEndpoint(s, opts.endpoint, { disabled });
          const fact = {
            action: `webhook.${verb}d`,
            target: opts.endpoint,
            accountId: s.accountId,
          };
          await cliAudit(s.store, fact);
          console.log(`${opts.endpoint} ${verb}d`);
        }),
      );
  }
  command(hooks, 'delete', 'delete an endpoint and its deliveries')
    .requiredOption('-e, --endpoint <EndpointId>', 'the endpoint')
    .action((opts: Opts & { endpoint: string }) =>
      run(opts, async (s) => {
        await deleteEndpoint(s, opts.endpoint);
        const fact = { action: 'webhook.deleted', target: opts.endpoint, accountId: s.accountId };
        await cliAudit(s.store, fact);
        console.log(`${opts.endpoint} deleted`);
      }),
    );
}

function registerDeliveries(hooks: Command): void {
  command(hooks, 'test', 'send a webhook.test event to an endpoint')
    .requiredOption('-e, --endpoint <EndpointId>', 'the endpoint')
    .action((opts: Opts & { endpoint: string }) =>
      run(opts, async (s) =>
        console.log(`${webhookId(await sendTestEvent(s, opts.endpoint))} queued`),
      ),
    );
  command(hooks, 'deliveries', 'the latest deliveries, newest first')
    .option('-n, --limit <n>', 'how many (1-1000)', '50')
    .option('--state <state>', 'pending, delivered or failed')
    .action((opts: Opts & { limit: string; state?: string }) =>
      run(opts, async (s) => {
        const limit = Number(opts.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
          throw new CliError('--limit must be 1 to 1000');
        }
        const state = stateOf(opts.state);
        const page = await s.store.listDeliveries({
          accountId: s.accountId,
          limit,
          ...(state ? { state } : {}),
        });
        for (const d of page.deliveries) {
          const answer = d.lastStatus ?? d.lastError;
          console.log(
            `${webhookId(d.eventId)}\t${d.type}\t${d.endpointId}\t${d.state}\t${d.attempts}\t${answer}`,
          );
        }
      }),
    );
  command(hooks, 'replay', 'send again: one event (--event), or every failed one since (--since)')
    .option('--event <EventId>', 'an event, as evt_123')
    .option('--since <time>', 'an ISO time or Unix seconds')
    .option('-e, --endpoint <EndpointId>', 'only to this endpoint')
    .action((opts: Opts & { event?: string; since?: string; endpoint?: string }) =>
      run(opts, async (s) => {
        const n = await replay(s, replayed(opts), opts.endpoint);
        const target = opts.event ?? `since ${opts.since ?? ''}`;
        const detail = { EndpointId: opts.endpoint ?? '', Replayed: n };
        await cliAudit(s.store, {
          action: 'webhook.replayed',
          target,
          accountId: s.accountId,
          detail,
        });
        console.log(`${n} deliveries due again`);
      }),
    );
}

function stateOf(raw: string | undefined): 'pending' | 'delivered' | 'failed' | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'pending' || raw === 'delivered' || raw === 'failed') return raw;
  throw new CliError('--state must be pending, delivered or failed');
}

function replayed(opts: {
  event?: string;
  since?: string;
}): { eventId: number } | { failedSince: number } {
  if ((opts.event === undefined) === (opts.since === undefined)) {
    throw new CliError('give --event or --since, not both');
  }
  if (opts.event !== undefined) {
    const eventId = eventNumber(opts.event);
    if (eventId === undefined) throw new CliError('--event must be an event id such as evt_123');
    return { eventId };
  }
  // --event or --since is required; --event was not given.
  const raw = opts.since as string;
  const ms = /^\d{1,12}$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
  if (Number.isNaN(ms)) throw new CliError('--since must be an ISO time or Unix seconds');
  return { failedSince: ms };
}
