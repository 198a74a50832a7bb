import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface KannelBins {
  bearerbox: string;
  smsbox: string;
  version: string;
}

const POLICY = '/usr/sbin/policy-rc.d';

function found(dir: string): KannelBins | undefined {
  const bearerbox = join(dir, 'bearerbox');
  const smsbox = join(dir, 'smsbox');
  if (!existsSync(bearerbox) || !existsSync(smsbox)) return undefined;
  const v = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'kannel'], { encoding: 'utf8' });
  return { bearerbox, smsbox, version: v.status === 0 ? `Kannel ${v.stdout}` : 'Kannel' };
}

function hasApt(): boolean {
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * `apt-get install -y kannel`, with a policy-rc.d that forbids starting services for the
 * duration (when none is there already): the package's own bearerbox must not start as a
 * system service, the bench runs its boxes by hand.
 */
function aptInstall(): boolean {
  const ownPolicy = !existsSync(POLICY);
  if (ownPolicy) writeFileSync(POLICY, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    console.error('installing Kannel: apt-get install -y kannel');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const opts = { stdio: 'inherit' as const, env, timeout: 600_000 };
    if (spawnSync('apt-get', ['install', '-y', 'kannel'], opts).status === 0) return true;
    spawnSync('apt-get', ['update'], opts);
    return spawnSync('apt-get', ['install', '-y', 'kannel'], opts).status === 0;
  } finally {
    if (ownPolicy) rmSync(POLICY, { force: true });
  }
}

/**
 * Kannel's boxes from `dir` (Debian puts them in /usr/sbin), installed with apt-get when missing
 * and possible; otherwise a reason to skip the Kannel runs.
 */
export function findKannel(dir: string): KannelBins | string {
  const bins = found(dir);
  if (bins) return bins;
  if (dir !== '/usr/sbin') return `no bearerbox and smsbox in ${dir}`;
  if (process.getuid?.() !== 0) {
    return 'Kannel is not installed and installing it needs root: run `sudo apt-get install -y kannel` (or pass --kannel-bin <dir>)';
  }
  if (!hasApt())
    return 'Kannel is not installed and there is no apt-get here (pass --kannel-bin <dir>)';
  if (!aptInstall()) return 'apt-get install -y kannel failed (see its output above)';
  return found(dir) ?? 'apt-get installed kannel but /usr/sbin/bearerbox is missing';
}
