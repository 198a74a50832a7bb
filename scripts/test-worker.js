// One of the suite's worker processes (scripts/run-tests.js starts them under node's runner).
// A process per test file would load the gateway's ~1,500 modules ~180 times, most of a pass's
// CPU on two cores; a worker loads them once and runs file after file: it takes the next file
// nobody has taken (a claim is a file created with O_EXCL, so two workers never run the same
// one), imports it, and waits until that file's tests are done before it takes another, so the
// faster worker takes more and both end together.
import { openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

/** The name of the test that marks a file's end; the reporter counts it nowhere. */
export const BARRIER = 'wirebird: the file before this one is done';

/** How run-tests.js names a worker's entry file, and how the reporter tells it from a test file. */
export const ENTRY_PREFIX = 'wirebird-test-worker-';

function claim(dir, index) {
  try {
    closeSync(openSync(join(dir, `${index}.claim`), 'wx'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Top-level tests run one after another, so a test registered after a file's own runs once they
 * have all ended: its start is the sign to take the next file.
 */
function barrier() {
  return new Promise((resolve) => test(BARRIER, () => resolve()));
}

/**
 * WIREBIRD_TEST_PROFILE=<folder>: each worker writes a CPU profile of its files there (the
 * runner's --cpu-prof is refused in NODE_OPTIONS), to see where the suite's time goes.
 */
async function profiler() {
  const folder = process.env.WIREBIRD_TEST_PROFILE;
  if (!folder) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(folder, `worker-${process.pid}.cpuprofile`), JSON.stringify(profile));
  };
}

/** What keeps the event loop alive besides the worker's own stdio: sockets by their peer. */
function heldBy() {
  const stdio = new Set([process.stdin, process.stdout, process.stderr]);
  // Node has no public list of handles; this one names a socket's peer, which the public
  // getActiveResourcesInfo() does not.
  const handles = process._getActiveHandles?.() ?? [];
  return handles
    .filter((h) => !stdio.has(h) && h.constructor?.name !== 'Timeout')
    .map((h) =>
      h.remotePort === undefined
        ? (h.constructor?.name ?? 'a handle')
        : `a socket to ${h.remoteAddress}:${h.remotePort}`,
    );
}

export async function work(dir) {
  const files = JSON.parse(readFileSync(join(dir, 'files.json'), 'utf8'));
  const ran = [];
  const stop = await profiler();
  for (let i = 0; i < files.length; i++) {
    if (!claim(dir, i)) continue;
    ran.push(files[i]);
    try {
      await import(pathToFileURL(files[i]).href);
    } catch (error) {
      // A file that does not load fails by its name, and the worker goes on with the next.
      test(`${files[i]} loads`, () => {
        throw error;
      });
    }
    await barrier();
  }
  await stop();
  // A file that leaves a handle open (a server, a pool) would keep the worker, and the suite,
  // waiting for ever: past a grace period, the worker says what holds it and the files it ran
  // last, and ends. It warns rather than fails: every test has passed or failed by then, and
  // the line is the lead to the leak (one seen once in the PostgreSQL pass, a socket).
  setTimeout(() => {
    console.error(
      `test worker: still running 10 s after its last file, held by ${heldBy().join(', ')}; ` +
        `its last files: ${ran.slice(-3).join(', ')}`,
    );
    process.exit(0);
  }, 10_000).unref();
}
