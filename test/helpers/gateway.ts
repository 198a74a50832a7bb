import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WirebirdClient } from '@wirebird/client';
import { pino, type Logger } from 'pino';
import { checkConfig, type Config } from '../../src/config/config.js';
import { startGateway, type Gateway, type GatewayTime } from '../../src/gateway/start-gateway.js';
import { checkApiAnswer } from './openapi.js';
// Here since most tests that wait start their gateway here; its own module for those that do not.
export { eventually } from './eventually.js';
import {
  createScratchSchema,
  type ScratchSchema,
} from '../../src/store/postgres/scratch-schema.js';

export interface TestGateway extends Gateway {
  dataDir: string;
  /** The environment a CLI run needs to reach this gateway's store (its schema on PostgreSQL). */
  storeEnv: Record<string, string>;
  /** The development account's key (AccountId 1). */
  key: string;
  /** POST /api with the dev key (or the one given); returns status and parsed JSON. */
  api(
    body: unknown,
    options?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<Answer>;
  /** The typed client, with the dev key (AccountId 1 unless a call names another) and the admin key. */
  client: WirebirdClient;
  /** A call to the admin API with the admin key (or none when key is null). */
  admin(method: string, path: string, body?: unknown, key?: string | null): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  json: Record<string, unknown> & { RetCode: number; Message: string };
}

/**
 * WIREBIRD_TEST_STORE=postgres runs these end-to-end tests on PostgreSQL
 * (WIREBIRD_TEST_DATABASE_URL), each gateway in a schema of its own; otherwise on SQLite.
 */
async function scratchDatabase(): Promise<ScratchSchema | undefined> {
  if (process.env.WIREBIRD_TEST_STORE !== 'postgres') return undefined;
  const url = process.env.WIREBIRD_TEST_DATABASE_URL;
  if (!url) throw new Error('WIREBIRD_TEST_STORE=postgres needs WIREBIRD_TEST_DATABASE_URL');
  return createScratchSchema(url);
}

/** For a test that reads SQLite's files: skipped when the gateways run on PostgreSQL. */
export const sqliteOnly =
  process.env.WIREBIRD_TEST_STORE === 'postgres' ? { skip: 'reads the SQLite files' } : {};

/** For the tests whose subject is SendBatchUSMSMessage: one acceptance thread answers it. */
export const THREADED = { acceptThreads: 1 } as const;

/**
 * Starts a real gateway on a free loopback port with a throw-away data folder (or schema). With
 * `time` (a ManualTime), the gateway's clock and timers are the test's to move: pass
 * `acceptThreads: 0` too, as an acceptance thread reads the clock of its own thread.
 */
export async function startTestGateway(
  overrides: Record<string, unknown> = {},
  logger: Logger = pino({ level: 'silent' }),
  time?: GatewayTime,
  /** Leave the acceptance threads to start with the first batch, as in production. */
  o: { lazyThreads?: boolean } = {},
): Promise<TestGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-test-'));
  const scratch = await scratchDatabase();
  // A gateway that fails to start leaves neither its folder nor its schema behind.
  const discard = async (err: unknown, started?: Gateway): Promise<never> => {
    await started?.stop();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  };
  let config: Config;
  try {
    config = checkConfig({
      ...(scratch && { database: { url: scratch.url, poolSize: 4 } }),
      port: 0,
      host: '127.0.0.1',
      dataDir,
      templateReview: 'manual',
      sqliteSynchronous: 'NORMAL',
      // No acceptance thread: each loads the gateway's modules (0.6 – 0.9 s of CPU) and only
      // SendBatchUSMSMessage goes to one, through the same runEnvelope the main thread runs. The
      // tests whose subject is that Action pass THREADED (below), so the thread's hand-over is
      // covered for every kind of batch; accept-threads.test.ts runs two.
      acceptThreads: 0,
      logLevel: 'silent',
      ...overrides,
    });
  } catch (err) {
    return discard(err);
  }
  const gw = await startGateway(config, logger, time).catch(discard);
  // The threads start with the first batch in production (accept-threads.test.ts tests that);
  // a test that asks for them means its batches to go there from the first.
  if (!o.lazyThreads) await gw.acceptPool?.ready().catch((err: unknown) => discard(err, gw));
  if (!gw.devAccount)
    return discard(new Error('expected a development account on first start'), gw);
  const key = gw.devAccount.key;
  // Every call of the tests goes through the typed client's transport (packages/client), raw:
  // the tests send bad requests too, and read every answer whatever its RetCode.
  const client = new WirebirdClient({ baseUrl: gw.url, apiKey: key, adminKey: gw.adminKey });
  const call = async (
    method: string,
    path: string,
    body: unknown,
    o: { key: string | null; headers?: Record<string, string> },
  ): Promise<Answer> => {
    const raw = await client.request(method, path, { body, key: o.key, headers: o.headers });
    return { status: raw.status, json: raw.answer as Answer['json'] };
  };
  return {
    ...gw,
    dataDir,
    storeEnv: scratch ? { DATABASE_URL: scratch.url } : {},
    key,
    client,
    api: async (body, options = {}) => {
      const k = options.key === undefined ? key : options.key;
      const answer = await call('POST', '/api', body, { key: k, headers: options.headers });
      checkApiAnswer(answer.json);
      return answer;
    },
    admin: (method, path, body, adminKey) =>
      call(method, path, body, { key: adminKey === undefined ? gw.adminKey : adminKey }),
    async close() {
      await gw.stop();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
