import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTracked, stop } from './children.js';
import { simReceipts, type Contender, type RunSetup } from './contender.js';

const CLIENT = fileURLToPath(new URL('bare-client.js', import.meta.url));

/**
 * The bare client as a child process, so its CPU and RSS are its own: it binds, then waits for
 * SIGUSR2 before it submits anything.
 */
export async function startCeiling(r: RunSetup): Promise<Contender> {
  const limitS = r.o.timeLimitS + r.o.drainLimitS;
  const args = [CLIENT, String(r.sim.port), r.kind.kind, String(r.phones.length)];
  args.push(String(r.window), String(limitS));
  const proc = spawnTracked('bare-client', process.execPath, args, join(r.dir, 'bare-client.log'));
  const bound = await r.sim.waitFor((s) => s.binds >= 1, Date.now() + 15_000);
  if (!bound || bound.binds < 1) {
    await stop(proc);
    throw new Error(`the bare client did not bind (see ${r.dir}/bare-client.log)`);
  }
  return {
    pids: [proc.pid],
    send: () => {
      process.kill(proc.pid, 'SIGUSR2');
      return Promise.resolve(undefined);
    },
    receipts: (deadline) => simReceipts(r, deadline),
    async stop() {
      await stop(proc);
      return undefined;
    },
  };
}
