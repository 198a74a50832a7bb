/**
 * The one Store contract suite (docs/architecture.md: all SQL in store/, both adapters held to
 * one contract): every adapter runs it through its own runner
 * file, passing a function that opens a fresh, empty store. Each test opens its own store and
 * closes it, and speaks only the Store interface, so the suite never knows which adapter it is.
 */
import { describe } from 'node:test';
import { accountsContract } from './accounts-contract.js';
import { claimsContract } from './claims-contract.js';
import { concurrencyContract } from './concurrency-contract.js';
import { conversationsContract } from './conversations-contract.js';
import { scheduleContract } from './schedule-contract.js';
import type { OpenStore } from './fixtures.js';
import { inboundContract } from './inbound-contract.js';
import { smppCredentialsContract } from './smpp-credentials-contract.js';
import { apiKeysContract } from './api-keys-contract.js';
import { consoleSessionsContract } from './console-sessions-contract.js';
import { auditContract } from './audit-contract.js';
import { smppReceiptsContract } from './smpp-receipts-contract.js';
import { inboundMediaContract } from './inbound-media-contract.js';
import { inboxContract } from './inbox-contract.js';
import { mediaContract } from './media-contract.js';
import { messagesContract } from './messages-contract.js';
import { optOutsContract } from './opt-outs-contract.js';
import { outboxContract } from './outbox-contract.js';
import { policyContract } from './policy-contract.js';
import { outcomesContract } from './outcomes-contract.js';
import { partsContract } from './parts-contract.js';
import { receiptsContract } from './receipts-contract.js';
import { reportsContract } from './reports-contract.js';
import { templatesContract } from './templates-contract.js';
import { ucloudContract } from './ucloud-contract.js';
import { viewsContract } from './views-contract.js';

export type { OpenStore } from './fixtures.js';

export function runStoreContract(name: string, open: OpenStore): void {
  describe(`Store contract: ${name}`, () => {
    accountsContract(open);
    templatesContract(open);
    messagesContract(open);
    claimsContract(open);
    outcomesContract(open);
    reportsContract(open);
    partsContract(open);
    receiptsContract(open);
    inboxContract(open);
    viewsContract(open);
    mediaContract(open);
    ucloudContract(open);
    smppCredentialsContract(open);
    apiKeysContract(open);
    consoleSessionsContract(open);
    auditContract(open);
    smppReceiptsContract(open);
    inboundContract(open);
    inboundMediaContract(open);
    outboxContract(open);
    optOutsContract(open);
    conversationsContract(open);
    scheduleContract(open);
    policyContract(open);
    concurrencyContract(open);
  });
}
