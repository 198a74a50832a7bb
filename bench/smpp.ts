import { measureDispatch, type DispatchFigures } from './dispatch.js';
import { startSim } from './kannel/sim.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { readProc } from './proc.js';
import { fmt, table } from './stats.js';

export interface SmppFigures extends DispatchFigures {
  window: number;
  binds: number;
  receiptDelayMs: number;
  smscCpuS: number;
}

/**
 * End to end through the SMPP channel: SendBatchUSMSMessage → dispatcher → submit_sm over one
 * bind (or --binds) with --window outstanding → `wirebird smsc-sim` → deliver_sm receipts →
 * GetUSMSSendReceipt, every message followed to its final receipt.
 */
export async function measureSmpp(
  o: Options,
  dataDir: string,
  phones: PhoneSequence,
): Promise<SmppFigures> {
  const sim = await startSim(o.gatewayMain, dataDir, o.receiptDelayMs);
  try {
    const cpu0 = readProc(sim.proc.pid)?.cpuS ?? 0;
    const config = {
      smpp: {
        smscs: [
          {
            name: 'bench',
            port: sim.port,
            systemId: 'bench',
            window: o.smppWindow,
            binds: o.smppBinds,
            tps: 1_000_000,
          },
        ],
        routes: [{ prefix: '', smscs: ['bench'] }],
      },
    };
    const f = await measureDispatch(o, dataDir, phones, config, 'smpp');
    const smscCpuS = (readProc(sim.proc.pid)?.cpuS ?? cpu0) - cpu0;
    return {
      ...f,
      window: o.smppWindow,
      binds: o.smppBinds,
      receiptDelayMs: o.receiptDelayMs,
      smscCpuS,
    };
  } finally {
    await sim.stopAndReadLog();
  }
}

export function smppTable(f: SmppFigures): string {
  const per10k = (s: number) => fmt.s((s * 10_000) / Math.max(1, f.finals));
  return table([
    ['binds × window', `${f.binds} × ${f.window}, receipts on (SMSC delay ${f.receiptDelayMs} ms)`],
    ['**gateway CPU per 10,000 messages**', `**${per10k(f.cpuS)}**`],
    ['SMSC simulator CPU per 10,000 messages', per10k(f.smscCpuS)],
  ]);
}
