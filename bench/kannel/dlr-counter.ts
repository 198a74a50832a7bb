import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { epochMs } from '../../src/smsc-sim/smsc-sim.js';

/** Receipts as the application sees them: Kannel's dlr-url hits, counted with their times. */
export interface DlrCounter {
  port: number;
  hits: number;
  /** Hits by Kannel's DLR type (%d: 1 delivered, 2 failed, 8 SMSC ack, 16 SMSC reject). */
  byType: Record<string, number>;
  /** Epoch ms of the first and last hit. */
  firstAt: number;
  lastAt: number;
  close(): Promise<void>;
}

/** A local HTTP server for the dlr-url (`/dlr?type=%d`), on 127.0.0.1 and a free port. */
export async function startDlrCounter(): Promise<DlrCounter> {
  const server: Server = createServer();
  const counter: DlrCounter = {
    port: 0,
    hits: 0,
    byType: {},
    firstAt: 0,
    lastAt: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  server.on('request', (req, res) => {
    const now = epochMs();
    counter.hits++;
    counter.firstAt ||= now;
    counter.lastAt = now;
    const type = new URL(req.url ?? '/', 'http://x').searchParams.get('type') ?? '?';
    counter.byType[type] = (counter.byType[type] ?? 0) + 1;
    res.end('ok');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  counter.port = (server.address() as AddressInfo).port;
  return counter;
}
