import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startScriptNodeArgs } from './gateway.js';

function sh(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
  } catch {
    return '(unavailable)';
  }
}

function dirty(): number {
  return sh('git', ['status', '--short', 'src']).split('\n').filter(Boolean).length;
}

function gatewayFlags(): string {
  const main = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
  return startScriptNodeArgs(main).join(' ') || '(none)';
}

/** The machine, as RESULTS.md records it. */
export function describeMachine(): string {
  const model = sh('lscpu', [])
    .split('\n')
    .filter((l) => l.startsWith('Model name'))
    .join('; ');
  return [
    `- date: ${new Date().toISOString()}`,
    `- nproc: ${sh('nproc', [])}`,
    `- lscpu: ${model.replace(/\s+/g, ' ')}`,
    `- node: ${process.version}`,
    `- load average at start: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} (the machine is shared: see "other processes" CPU per run)`,
    `- source: ${sh('git', ['rev-parse', '--short', 'HEAD'])} + ${dirty()} uncommitted src/ files`,
    `- gateway node flags, as \`npm start\` gives them: ${gatewayFlags()}`,
    '- free -h:',
    '```',
    sh('free', ['-h']),
    '```',
  ].join('\n');
}
