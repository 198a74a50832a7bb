/**
 * Wirebird's benchmark (issue 3): acceptance of SendBatchUSMSMessage, end-to-end dispatch through
 * the zero-delay simulator, and acceptance cost from an empty store to a large one. The gateway
 * runs as a child process on 127.0.0.1 so its RSS and CPU are its own. `--help` lists the flags.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { measureSmppServer, smppServerTable } from './smpp-server.js';
import { measureSmppServerE2e, smppServerE2eTable } from './smpp-server-e2e.js';
import { join } from 'node:path';
import { acceptanceTable, measureAcceptance } from './acceptance.js';
import { clusterTable, measureCluster } from './cluster.js';
import { dispatchTable, measureDispatch } from './dispatch.js';
import { eventsTable, measureEvents } from './events.js';
import { flatTable, measureFlat, prefilledDataDir, prefillLine } from './flat.js';
import { freshDataDir } from './gateway.js';
import { describeMachine } from './machine.js';
import { PhoneSequence } from './numbers.js';
import { parseOptions, usageChecked, type Options, type Scenario } from './options.js';
import { profilesMarkdown, type ProfileSummary } from './profile.js';
import { storedMessages } from './prefill.js';
import { measureSmpp, smppTable } from './smpp.js';
import { measureSqliteCeiling } from './sqlite-ceiling.js';
import { measureUcloud, ucloudTable } from './ucloud.js';
import { measureWhatsApp, whatsappTable } from './whatsapp.js';
import { measureScheduled, scheduledTable } from './scheduled.js';
import { measurePolicy, policyTable } from './policy.js';
import { latencyTable, measureLatency } from './latency.js';
import { idleTable, measureIdle } from './idle.js';
import { redacted } from '../src/store/open-store.js';

type Section = { markdown: string; figures: unknown };

function withProfile(markdown: string, profile: ProfileSummary[] | undefined): string {
  return profile?.length ? `${markdown}\n\n${profilesMarkdown(profile)}` : markdown;
}

function cleanup(o: Options, dir: string): void {
  if (!o.keep && dir !== o.dataDir) rmSync(dir, { recursive: true, force: true });
}

async function acceptance(o: Options, phones: PhoneSequence): Promise<Section> {
  const dir = freshDataDir(o.workDir, 'acceptance');
  const f = await measureAcceptance(o, dir, phones);
  // The ceiling runs after the gateway has stopped, so the two never share the cores.
  const ceiling = measureSqliteCeiling(join(dir, 'wirebird.db'), dir, o.synchronous);
  cleanup(o, dir);
  const markdown = acceptanceTable(f, ceiling);
  return { figures: { ...f, ceiling }, markdown: withProfile(markdown, f.profile) };
}

async function dispatch(o: Options, phones: PhoneSequence): Promise<Section> {
  const dir = freshDataDir(o.workDir, 'dispatch');
  const f = await measureDispatch(o, dir, phones);
  cleanup(o, dir);
  return { figures: f, markdown: withProfile(dispatchTable(f), f.profile) };
}

async function smpp(o: Options, phones: PhoneSequence): Promise<Section> {
  const dir = freshDataDir(o.workDir, 'smpp');
  const f = await measureSmpp(o, dir, phones);
  cleanup(o, dir);
  const markdown = `${smppTable(f)}\n\n${dispatchTable(f, 10_000)}`;
  return { figures: f, markdown: withProfile(markdown, f.profile) };
}

async function flat(o: Options, phones: PhoneSequence): Promise<Section> {
  const f = await measureFlat(o, phones);
  const lines = [f.prefill ? prefillLine(f.prefill) : `Reused ${f.dataDir}`, '', flatTable(f)];
  if (f.full.profile?.length)
    lines.push('', '**Profile, stored-volume run**', '', profilesMarkdown(f.full.profile));
  if (!o.dataDir && !o.keep) rmSync(f.dataDir, { recursive: true, force: true });
  return { figures: f, markdown: lines.join('\n') };
}

async function prefillOnly(o: Options): Promise<Section> {
  const { dir, run } = await prefilledDataDir({ ...o, keep: true });
  const line = run ? prefillLine(run) : `already ${storedMessages(dir)} stored`;
  return { figures: { dir, run }, markdown: `${line}\n\nData dir: \`${dir}\`` };
}

const RUNNERS: Record<Scenario, (o: Options, phones: PhoneSequence) => Promise<Section>> = {
  acceptance,
  dispatch,
  flat,
  prefill: (o) => prefillOnly(o),
  smpp,
  ucloud: async (o, phones) => {
    const dir = freshDataDir(o.workDir, 'ucloud');
    const f = await measureUcloud(o, dir, phones);
    cleanup(o, dir);
    return { figures: f, markdown: ucloudTable(f) };
  },
  events: async (o, phones) => {
    const f = await measureEvents(o, phones);
    return { figures: f, markdown: eventsTable(f) };
  },
  'smpp-server': async (o, phones) => {
    const f = await measureSmppServer(o, phones);
    // Under --isolate dispatch crawls at 1/s: only the intake half means anything.
    if (o.isolate) return { figures: f, markdown: smppServerTable(f) };
    const e2e = await measureSmppServerE2e(o, phones);
    const markdown = `${smppServerTable(f)}\n\n${smppServerE2eTable(e2e)}`;
    return { figures: { ...f, e2e }, markdown };
  },
  whatsapp: async (o, phones) => {
    const f = await measureWhatsApp(o, phones);
    return { figures: f, markdown: whatsappTable(f) };
  },
  cluster: async (o, phones) => {
    const f = await measureCluster(o, phones);
    return { figures: f, markdown: clusterTable(f) };
  },
  scheduled: async (o, phones) => {
    const f = await measureScheduled(o, phones);
    return { figures: f, markdown: scheduledTable(f) };
  },
  latency: async (o, phones) => {
    const f = await measureLatency(o, phones);
    return { figures: f, markdown: latencyTable(f) };
  },
  idle: async (o, phones) => {
    const f = await measureIdle(o, phones);
    return { figures: f, markdown: idleTable(f) };
  },
  policy: async (o, phones) => {
    const f = await measurePolicy(o, phones);
    // The profile of the last run with a policy on each store, when --profile asked for them.
    const lastOf = (label: string) => f.runs.filter((r) => r.label === label).slice(-1);
    const withPolicy = [...lastOf('sqlite-policy'), ...lastOf('postgres-policy')];
    const profiles = withPolicy.flatMap((r) => r.profile ?? []);
    return { figures: f, markdown: withProfile(policyTable(f), profiles) };
  },
};

/** Keeps the JSON readable: a profile's 60 functions with the most self time. */
function trimProfiles(key: string, value: unknown): unknown {
  if (key !== 'functions' || !Array.isArray(value)) return value;
  return [...(value as { selfMs: number }[])].sort((a, b) => b.selfMs - a.selfMs).slice(0, 60);
}

function commandLine(): string {
  const args = process.argv
    .slice(2)
    .join(' ')
    .replace(/(postgres(?:ql)?:\/\/[^:/@\s]+:)[^@\s]+@/g, '$1*****@');
  return `npm run bench${args ? ` -- ${args}` : ''}`;
}

async function main(): Promise<void> {
  const o = usageChecked(() => parseOptions(process.argv.slice(2)));
  if (!o) return;
  const phones = new PhoneSequence('138', 0, o.numbers);
  // The database url may hold a password: the figures file keeps it out.
  const shown = { ...o, databaseUrl: o.databaseUrl && redacted(o.databaseUrl) };
  const out: Record<string, unknown> = { command: commandLine(), options: shown };
  console.log(`# Wirebird bench\n\n\`${commandLine()}\`\n\n${describeMachine()}\n`);
  for (const s of o.scenarios) {
    const runs: unknown[] = [];
    for (let i = 1; i <= o.repeat; i++) {
      const label = o.repeat > 1 ? `${s} (run ${i} of ${o.repeat})` : s;
      console.error(`running ${label}…`);
      const section = await RUNNERS[s](o, phones);
      runs.push(section.figures);
      console.log(`## ${label}\n\n${section.markdown}\n`);
    }
    out[s] = o.repeat > 1 ? runs : runs[0];
  }
  const dir = join(process.cwd(), 'bench', 'out');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(out, trimProfiles, 2));
  console.error(`figures written to ${file}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
