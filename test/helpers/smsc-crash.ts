import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { SmscSim } from '../../src/smsc-sim/smsc-sim.js';
import { kill, type GatewayProcess } from './process-gateway.js';

/**
 * What an SMPP crash test kills and restarts: a gateway process on a data folder of its own and
 * the SMSC simulator it sends to, in this process. Let go after the suite, killed if still up.
 */
export interface CrashRig {
  dataDir: string;
  gw: GatewayProcess | undefined;
  sim: SmscSim;
  /** Starts the simulator; answers the gateway's environment for it. */
  smsc(link: { window: number; tps: number }): Promise<Record<string, string>>;
}

/** A short lease, so that what the kill left claimed is claimed again within the test. */
export const CRASH_CONFIG = { templateReview: 'manual', dispatch: { leaseMs: 1000, pollMs: 20 } };

export function crashRig(prefix: string): CrashRig {
  const rig: CrashRig = {
    dataDir: mkdtempSync(join(tmpdir(), prefix)),
    gw: undefined,
    sim: new SmscSim({ port: 0, receiptDelayMs: 50 }),
    async smsc({ window, tps }) {
      const port = await rig.sim.start();
      return {
        WIREBIRD_SMSC: `smpp://wirebird:secret@127.0.0.1:${port}?window=${window}&tps=${tps}`,
      };
    },
  };
  after(async () => {
    if (rig.gw) await kill(rig.gw.child, 'SIGKILL');
    await rig.sim.stop();
    rmSync(rig.dataDir, { recursive: true, force: true });
  });
  return rig;
}
