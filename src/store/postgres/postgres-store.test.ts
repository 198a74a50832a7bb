import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { Store } from '../../domain/ports.js';
import { endpoint as outboxEndpoint } from '../contract/outbox-contract.js';
import { runStoreContract } from '../contract/store-contract.js';
import { LEASE, NOW, batch, sms } from '../contract/fixtures.js';
import { utcDay } from '../../domain/accounts/policy.js';
import { connectionConfig } from './database.js';
import { openPostgresStore } from './postgres-store.js';
import { createScratchSchema, type ScratchSchema } from './scratch-schema.js';
import { postgresMigrations } from './migrations.js';
import {
  ISSUERS_SQL,
  ROWS_BEFORE_THE_SPLIT,
  SPLIT_ISSUERS,
  checkSplitIssuers,
} from '../contract/issuer-migration.js';

const url = process.env.WIREBIRD_TEST_DATABASE_URL;

if (!url) {
  describe('Store contract: postgres', () => {
    it('runs only with WIREBIRD_TEST_DATABASE_URL set', { skip: 'no PostgreSQL named' }, () => {});
  });
} else {
  // One schema for the suite, migrated by the first test's store and emptied before each of the
  // others: every test still starts from a fresh, empty store.
  let contractSchema: Promise<ScratchSchema> | undefined;
  runStoreContract('postgres', async () => {
    if (contractSchema) await (await contractSchema).empty();
    contractSchema ??= createScratchSchema(url);
    return (await contractSchema).open();
  });
  after(async () => {
    await (await contractSchema)?.drop();
  });
  describe('postgres: several nodes on one database', () => nodesOnOneDatabase(url));
  describe('postgres migrations', () => {
    it("split a route of 'smpp:<smsc>' written before version 21 into the route and its upstream", async () => {
      const scratch = await createScratchSchema(url);
      const client = new pg.Client(connectionConfig({ url, schema: scratch.schema }));
      await client.connect();
      try {
        await client.query(
          `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
             applied_at BIGINT NOT NULL)`,
        );
        for (const m of postgresMigrations.filter((x) => x.version < 21)) {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations VALUES ($1, $2, 0)', [
            m.version,
            m.name,
          ]);
        }
        for (const sql of ROWS_BEFORE_THE_SPLIT) await client.query(sql);
        const store = await scratch.open();
        try {
          await checkSplitIssuers(store);
        } finally {
          await store.close();
        }
        assert.deepEqual((await client.query(ISSUERS_SQL)).rows, SPLIT_ISSUERS);
      } finally {
        await client.end();
        await scratch.drop();
      }
    });
  });
}

function nodesOnOneDatabase(url: string): void {
  let scratch: ScratchSchema;
  const nodes: Store[] = [];
  const node = async () => {
    const s = await scratch.open();
    nodes.push(s);
    return s;
  };
  before(async () => {
    scratch = await createScratchSchema(url);
  });
  after(async () => {
    for (const s of nodes) await s.close().catch(() => undefined);
    await scratch.drop();
  });

  it('nodes starting together migrate once and claim disjoint messages', async () => {
    const [a, b, c] = await Promise.all([node(), node(), node()]);
    await a.acceptBatch(batch(Array.from({ length: 300 }, () => sms())));
    const claims = await Promise.all([a, b, c, a, b, c].map((n) => n.claimDue(NOW, 40, LEASE)));
    const ids = claims.flat().map((m) => m.id);
    assert.equal(ids.length, 240);
    assert.equal(new Set(ids).size, 240, 'no message claimed by two nodes');
    // A node that died holding claims: any other node reclaims them once the lease expires.
    const again = await c.claimDue(NOW + LEASE + 1, 1000, LEASE);
    assert.equal(again.length, 300);
    assert.ok(again.every((m) => m.attempts === (ids.includes(m.id) ? 2 : 1)));
  });

  it('nodes share an endpoint’s deliveries: each claimed by one node', async () => {
    const [a, b, c] = [await node(), await node(), await node()];
    await a.ensureAccount(7, NOW);
    const endpoint = outboxEndpoint({ endpointId: 'we_shared', accountId: 7 });
    await a.insertEndpoint(endpoint);
    const events = Array.from({ length: 300 }, (_, i) => ({
      accountId: 7,
      type: 'contact.opted_in' as const,
      at: NOW,
      data: { N: i },
    }));
    assert.equal((await a.emitEvents(events, NOW)).length, 300);
    const claims = await Promise.all(
      [a, b, c, a, b, c].map((n) => n.claimDeliveries('we_shared', NOW, 40, NOW + LEASE)),
    );
    const ids = claims.flat().map((d) => d.eventId);
    assert.equal(ids.length, 240);
    assert.equal(new Set(ids).size, 240, 'no delivery claimed by two nodes');
  });

  /**
   * 40 batches of 25 (1,000 numbers, about 2,000 CostCount asked), half from each node, against
   * one balance and one daily limit: `binds` is the rule the smaller of the two makes refuse.
   */
  const race = async (r: {
    accountId: number;
    credit: number;
    dailyLimit: number;
    binds: string;
  }) => {
    const [a, b] = [await node(), await node()];
    await a.ensureAccount(r.accountId, NOW);
    await a.setAccountPolicy(r.accountId, { prepaid: true, dailyLimit: r.dailyLimit }, NOW);
    await a.addCredit(r.accountId, { costCount: r.credit, reference: 'race' }, NOW);
    const batches = Array.from({ length: 40 }, (_, i) =>
      batch(
        Array.from({ length: 25 }, (_, j) => sms({ costCount: 1 + ((i + j) % 3) })),
        { accountId: r.accountId },
      ),
    );
    const before = (await a.countByState()).queued ?? 0;
    const outcomes = await Promise.all(batches.map((x, i) => (i % 2 ? a : b).acceptBatch(x)));
    let used = 0;
    let accepted = 0;
    outcomes.forEach((o, i) => {
      assert.ok('refused' in o);
      const refused = new Set(o.refused.map((x) => x.index));
      // Every number not accepted is listed, once, with the rule that binds.
      assert.equal(refused.size, o.refused.length);
      for (const x of o.refused) assert.equal(x.rule, r.binds);
      batches[i]?.messages.forEach((m, j) => {
        if (refused.has(j)) return;
        used += m.costCount;
        accepted++;
      });
    });
    const cap = Math.min(r.credit, r.dailyLimit);
    assert.ok(used <= cap && used > cap - 5, `the limit binds: ${used} of ${cap}`);
    const view = await b.accountPolicy(r.accountId, utcDay(NOW));
    assert.deepEqual([view.usedToday, view.balance], [used, r.credit - used]);
    const ledger = await a.creditLedger(r.accountId, { limit: 1000 });
    assert.equal(
      ledger.reduce((n, e) => n + e.costCount, 0),
      view.balance,
      'the ledger sums',
    );
    const stored = ((await a.countByState()).queued ?? 0) - before;
    assert.equal(stored, accepted, 'each accepted number stored, no refused one');
  };

  it('one Reference credited from two nodes at once is added once', async () => {
    const [a, b] = [await node(), await node()];
    await a.ensureAccount(12, NOW);
    const credit = { costCount: 7, reference: 'retried' };
    const outcomes = await Promise.all([a, b, a, b, a, b].map((n) => n.addCredit(12, credit, NOW)));
    assert.equal(outcomes.filter((o) => 'added' in o).length, 1);
    assert.equal(outcomes.filter((o) => 'earlier' in o).length, 5);
    assert.equal((await b.accountPolicy(12, utcDay(NOW))).balance, 7);
  });

  it('many batches at once from two nodes never pass one daily limit', async () => {
    await race({ accountId: 8, credit: 500, dailyLimit: 400, binds: 'daily_limit' });
  });

  it('many batches at once from two nodes never overdraw one balance', async () => {
    await race({ accountId: 10, credit: 300, dailyLimit: 400, binds: 'prepaid' });
  });

  it('concurrent sends to one number from two nodes stop at its hourly limit', async () => {
    const [a, b] = [await node(), await node()];
    await a.ensureAccount(9, NOW);
    await a.setAccountPolicy(9, { prepaid: false, recipientHourlyLimit: 3 }, NOW);
    const sends = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? a : b).acceptBatch(batch([sms()], { accountId: 9 })),
    );
    const outcomes = await Promise.all(sends);
    const stored = outcomes.filter((o) => 'refused' in o && o.refused.length === 0);
    assert.equal(stored.length, 3);
  });

  it('a lock is held by one node at a time and passes on when its holder goes', async () => {
    const [a, b] = [await node(), await node()];
    assert.equal(await a.cluster?.holdsLock('sweeper'), true);
    assert.equal(await a.cluster?.holdsLock('sweeper'), true, 'the holder keeps it');
    assert.equal(await b.cluster?.holdsLock('sweeper'), false);
    assert.equal(await b.cluster?.holdsLock('reviewer'), true, 'each name is its own lock');
    await a.close();
    assert.equal(await b.cluster?.holdsLock('sweeper'), true, 'taken over once a has gone');
  });

  it('a lock another installation holds (another schema) does not count', async () => {
    const other = await createScratchSchema(url);
    const elsewhere = await other.open();
    try {
      const here = await node();
      assert.equal(await elsewhere.cluster?.holdsLock('reviewer'), true);
      assert.equal(await here.cluster?.holdsLock('reviewer'), false, 'held by b of the last test');
      assert.equal(await here.cluster?.holdsLock('other-work'), true);
    } finally {
      await elsewhere.close();
      await other.drop();
    }
  });

  it('route tokens come from one bucket for all nodes', async () => {
    const [a, b] = [await node(), await node()];
    const rate = 1000;
    const first = await a.cluster?.takeRouteTokens('smsc-a', 800, rate);
    const second = await b.cluster?.takeRouteTokens('smsc-a', 800, rate);
    assert.equal(first, 800, 'a full bucket to start with');
    // b gets what a left plus the refill of the few milliseconds between: far from 800.
    assert.ok(second !== undefined && second >= 200 && second < 400, `b got ${second}`);
    assert.equal(await b.cluster?.takeRouteTokens('smsc-b', 800, rate), 800, 'per route');
  });

  it('refuses a database whose schema is newer than this code knows', async () => {
    const client = new pg.Client(connectionConfig({ url, schema: scratch.schema }));
    await client.connect();
    await client.query(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)",
    );
    await client.end();
    await assert.rejects(
      openPostgresStore({ url, schema: scratch.schema }),
      /schema version 999.*upgrade Wirebird/,
    );
  });
}
