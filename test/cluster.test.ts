import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InboxEntry } from '../src/domain/messages/message.js';
import pg from 'pg';
import { connectionConfig } from '../src/store/postgres/database.js';
import { createScratchSchema, type ScratchSchema } from '../src/store/postgres/scratch-schema.js';
import {
  approvedTemplate,
  batch,
  call,
  count,
  finalCount,
  pause,
  receipts,
  type Receipts,
} from './helpers/process-api.js';
import { freePort, kill, spawnGateway, type GatewayProcess } from './helpers/process-gateway.js';

const url = process.env.WIREBIRD_TEST_DATABASE_URL;
const NODES = 3;
const BATCHES = 12;
const PER_BATCH = 500;
const TOTAL = BATCHES * PER_BATCH;
const KEY = 'cluster-test-key-0123456789';
const CONFIG = {
  simDelayMs: 20,
  templateReview: 'manual',
  apiKeys: [{ accountId: 1, key: KEY }],
  adminKey: 'cluster-test-admin-key-0123456789',
  // The sweeper runs every receiptTimeoutS / 10 seconds; 60 s keeps every message from timing out.
  receiptTimeoutS: 60,
  // A route slow enough that the kill lands mid-dispatch (400/s for the whole cluster: 15 s for
  // everything; a batch sent to give the third node work lasts 1.25 s, long enough on a loaded
  // machine to see it submitting and kill it), and a short lease so that the killed node's claims
  // come back quickly.
  dispatch: { routeTps: 400, leaseMs: 3000, batchSize: 100, window: 100, pollMs: 20 },
};

describe(
  'three nodes on one PostgreSQL, one killed with SIGKILL mid-stream',
  { skip: !url && 'WIREBIRD_TEST_DATABASE_URL is not set' },
  () => {
    let scratch: ScratchSchema;
    const dirs: string[] = [];
    const nodes: (GatewayProcess | undefined)[] = [];
    const ports: number[] = [];
    const start = async (i: number) => {
      const dir = (dirs[i] ??= mkdtempSync(join(tmpdir(), `wirebird-node-${i}-`)));
      ports[i] ??= await freePort();
      nodes[i] = await spawnGateway(dir, ports[i], CONFIG, { DATABASE_URL: scratch.url });
      return nodes[i];
    };
    before(async () => {
      scratch = await createScratchSchema(url as string, 'wb_cluster');
    });
    after(async () => {
      for (const n of nodes) if (n) await kill(n.child, 'SIGKILL');
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      await scratch.drop();
    });

    it('brings every accepted message to one final receipt, resubmitting only reclaimed ones', async () => {
      // Started together: they migrate one at a time and find one schema.
      const started = await Promise.allSettled(Array.from({ length: NODES }, (_, i) => start(i)));
      for (const s of started) if (s.status === 'rejected') throw s.reason;
      const [a, b] = nodes;
      assert.ok(a && b);
      const templateId = await approvedTemplate(a, b);
      const live = () => nodes.filter((n): n is GatewayProcess => n !== undefined);
      const sessions: string[] = [];
      const send = async (i: number) => {
        const alive = live();
        const node = alive[i % alive.length] as GatewayProcess;
        const answer = await call(node, batch(templateId, i, PER_BATCH));
        assert.equal(answer.RetCode, 0, String(answer.Message));
        assert.equal(answer.SuccessCount, PER_BATCH);
        sessions.push(answer.SessionNo as string);
      };

      for (let i = 0; i < BATCHES / 2; i++) await send(i);
      // Kill once dispatch is under way on every node and far from done.
      for (let i = 0; i < 500 && (await finalCount(a, sessions)) < 300; i++) await pause(20);
      const before = await finalCount(a, sessions);
      // Dispatch is under way; killHoldingClaims makes sure the kill lands while it holds claims.
      assert.ok(before > 0, `dispatch under way (${before} final)`);
      const kill3 = await killHoldingClaims(send, BATCHES / 2);
      let next = kill3.next;
      for (; next < (3 * BATCHES) / 4; next++) await send(next);
      await start(2);
      for (; next < BATCHES; next++) await send(next);

      const final = await allFinal(live(), sessions);
      assert.equal(count(final), TOTAL, 'every accepted message has a final receipt');
      for (const session of sessions) {
        const set = final.get(session) ?? [];
        assert.equal(set.length, PER_BATCH, `session ${session}: one receipt per message`);
        assert.equal(new Set(set.map((r) => r.Phone)).size, PER_BATCH, 'no phone twice');
        assert.ok(set.every((r) => r.ReceiptResult === 'Success'));
      }
      await checkSubmissions(kill3.kills);
    });

    /**
     * Kills the third node (SIGKILL) while it dispatches, then checks after one lease that it
     * held claims: some are left with a lease nobody renews, or were claimed again already. A
     * kill that found it holding nothing is tried again: the node is restarted and given the
     * next batch to work on. Answers the next batch to send and how many kills it took.
     */
    async function killHoldingClaims(
      send: (i: number) => Promise<void>,
      first: number,
    ): Promise<{ next: number; kills: number }> {
      const db = new pg.Client(connectionConfig({ url: scratch.url }));
      await db.connect();
      const reclaimed = async () =>
        Number(
          (await db.query<{ n: string }>('SELECT count(*) AS n FROM messages WHERE attempts >= 2'))
            .rows[0]?.n,
        );
      const orphaned = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM messages WHERE state = 'submitting' AND due_at < $1`,
              [Date.now()],
            )
          ).rows[0]?.n,
        );
      let next = first;
      try {
        for (let round = 0; round < 4; round++) {
          const before = await reclaimed();
          await whileSubmitting(nodes[2] as GatewayProcess);
          await kill((nodes[2] as GatewayProcess).child, 'SIGKILL');
          nodes[2] = undefined;
          // Live nodes renew their leases; a claim whose lease ran out was the dead node's.
          await pause(CONFIG.dispatch.leaseMs + 500);
          if ((await orphaned()) > 0 || (await reclaimed()) > before) {
            return { next, kills: round + 1 };
          }
          await start(2);
          await send(next++);
        }
        throw new Error('the third node never held claims for the others to take over');
      } finally {
        await db.end();
      }
    }

    /** Returns once the node's submitted count rises: it is in a pass, holding claims. */
    async function whileSubmitting(node: GatewayProcess): Promise<void> {
      const submitted = async () => {
        const r = await fetch(`${node.url}/metrics`, {
          headers: { authorization: `Bearer ${node.adminKey}` },
        });
        return (await r.text())
          .split('\n')
          .filter((l) => l.startsWith('wirebird_messages_submitted_total'))
          .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
      };
      let last = await submitted();
      for (let i = 0; i < 200; i++) {
        await pause(10);
        const now = await submitted();
        if (now > last) return;
        last = now;
      }
    }

    /** Polls the nodes in turn (bounded) until every message of every session is final. */
    async function allFinal(alive: GatewayProcess[], sessions: string[]): Promise<Receipts> {
      const node = (i: number) => alive[i % alive.length] as GatewayProcess;
      let i = 0;
      while (i < 1200 && (await finalCount(node(i), sessions)) < TOTAL) {
        await pause(50);
        i++;
      }
      return receipts(node(i), sessions);
    }

    /**
     * The simulator's inbox, shared by the nodes through the database, holds one entry per message
     * and counts every hand-over. A message handed over twice must have been claimed again in
     * between, which happens only once a lease expired: its latest attempt number is at least
     * its number of hand-overs.
     */
    async function checkSubmissions(kills: number): Promise<void> {
      const store = await scratch.open();
      let entries: InboxEntry[];
      try {
        entries = await store.listInbox({ limit: TOTAL * 2 });
      } finally {
        await store.close();
      }
      assert.equal(entries.length, TOTAL, 'one inbox entry per message');
      assert.equal(new Set(entries.map((e) => e.messageRef)).size, TOTAL);
      const twice = entries.filter((e) => e.submissions > 1);
      for (const e of twice) {
        assert.ok(
          e.lastAttempt >= e.submissions,
          `message ${e.messageRef}: ${e.submissions} hand-overs by ${e.lastAttempt} claims`,
        );
      }
      // Each kill may leave one node's claims handed over but not recorded.
      const bound = CONFIG.dispatch.batchSize * 2 * kills;
      assert.ok(twice.length <= bound, `${twice.length} resubmitted: more than one node's claims`);
      // Handed over under a later claim: what the killed node held came back to the others.
      const reclaimed = entries.filter((e) => e.lastAttempt > 1).length;
      assert.ok(reclaimed > 0, 'the killed node held claims that other nodes took over');
      console.log(
        `cluster: ${TOTAL} messages, ${reclaimed} delivered after a reclaim, ` +
          `${twice.length} submitted twice (their lease expired mid-submit)`,
      );
    }
  },
);
