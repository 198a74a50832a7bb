import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { exited } from '../gateway.js';

/**
 * Every process the Kannel bench starts, by pid, so that an error or Ctrl-C still stops each of
 * them (and only them): the bench never signals anything by name.
 */
const running = new Map<number, string>();

export interface Tracked {
  pid: number;
  name: string;
  child: ChildProcess;
}

/** Spawns `cmd` with its output in `logFile`, and remembers its pid until it is stopped. */
export function spawnTracked(name: string, cmd: string, args: string[], logFile: string): Tracked {
  const log = openSync(logFile, 'a');
  const child = spawn(cmd, args, { stdio: ['ignore', log, log] });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${name} did not start (${cmd})`);
  running.set(pid, name);
  child.once('exit', () => running.delete(pid));
  return { pid, name, child };
}

/** For a process started elsewhere (the Wirebird gateway): stopped on Ctrl-C all the same. */
export function trackPid(pid: number, name: string): () => void {
  running.set(pid, name);
  return () => running.delete(pid);
}

/** A process that exited a moment ago is no error. */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** SIGTERM by pid, then SIGKILL by pid if it is still there after `graceMs`. */
export async function stop(t: Tracked, graceMs = 5_000): Promise<void> {
  if (await exited(t.child, 0)) return;
  signal(t.pid, 'SIGTERM');
  if (await exited(t.child, graceMs)) return;
  signal(t.pid, 'SIGKILL');
  await exited(t.child, 5_000);
}

function killRemaining(): void {
  for (const [pid, name] of running) {
    signal(pid, 'SIGKILL');
    console.error(`stopped ${name} (pid ${pid})`);
  }
  running.clear();
}

/** On Ctrl-C, SIGTERM or an uncaught error: kill what is still running, by pid, then leave. */
export function stopAllOnExit(): void {
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      console.error(`${sig}: stopping the processes this bench started`);
      killRemaining();
      process.exit(130);
    });
  }
  process.once('exit', killRemaining);
}
