// `npm run bench [-- CASE...] [-- --quick] [-- --minutes N]`: runs the benchmark cases, prints
// tables, writes bench/results/latest.{json,md,svg}. Benchmarks never assert anything. The soak and
// the chaos bench run only when named (they run for minutes: --minutes N, default 5); a case that
// sets process.exitCode (the chaos bench, when a verdict fails) makes the run exit with it.
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import { ROOT } from './lib/procs.js';
import { renderMarkdown, renderText } from './lib/table.js';
import { renderSvg, type Panel } from './lib/svg.js';
import type { BenchCase, CaseResult } from './lib/types.js';
import { passthrough } from './cases/passthrough.js';
import { interactive } from './cases/interactive.js';
import { waiting } from './cases/waiting.js';
import { waitingReplay } from './cases/waiting-replay.js';
import { startup } from './cases/startup.js';
import { sharing } from './cases/sharing.js';
import { untied } from './cases/untied.js';
import { soakCase } from './cases/soak.js';
import { rounds } from './cases/rounds.js';
import { budget } from './cases/budget.js';
import { uplift } from './cases/uplift.js';
import { chaos } from './cases/chaos.js';

const CASES: Record<string, BenchCase> = {
  passthrough,
  interactive,
  waiting,
  'waiting-replay': waitingReplay,
  startup,
  sharing,
  untied,
  rounds,
  budget,
  uplift,
  soak: soakCase,
  chaos,
};
/** Run when no case is named: all but the soak and the chaos bench. */
const DEFAULT_CASES = Object.keys(CASES).filter((n) => n !== 'soak' && n !== 'chaos');

// Children are SIGKILLed from the test helpers' exit hook; make signals run it too.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => process.exit(130));

// The v1 SDK's StreamableHTTPClientTransport passes one long-lived AbortSignal to every fetch, and
// undici only drops its per-fetch abort listener at GC: the "direct (v1 SDK)" clients trip Node's
// MaxListenersExceededWarning once per request past 1500. Say it once instead of a thousand times.
let listenerWarning = false;
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name === 'MaxListenersExceededWarning') {
    if (!listenerWarning) process.stderr.write(`note: ${w.message} (v1 SDK HTTP client: one AbortSignal shared by every fetch; shown once)\n`);
    listenerWarning = true;
    return;
  }
  process.stderr.write(`${w.name}: ${w.message}\n`);
});

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const minutesAt = args.indexOf('--minutes');
  const minutes = minutesAt < 0 ? undefined : Number(args[minutesAt + 1]);
  if (minutes !== undefined && !(Number.isFinite(minutes) && minutes > 0))
    throw new Error(`--minutes: expected a number of minutes above 0, got '${args[minutesAt + 1] ?? ''}'`);
  const names = args.filter((a, i) => !a.startsWith('--') && !(minutesAt >= 0 && i === minutesAt + 1));
  for (const n of names) if (!CASES[n]) throw new Error(`unknown case '${n}'; cases: ${Object.keys(CASES).join(', ')}`);
  const selected = names.length ? names : DEFAULT_CASES;
  const started = Date.now();
  const loadAverageAtStart = os.loadavg().map((x) => Math.round(x * 100) / 100);
  const log = (line: string) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${line}\n`);
  const results: CaseResult[] = [];
  for (const name of selected) {
    log(`case ${name}${quick ? ' (quick)' : ''}`);
    results.push(await CASES[name]!({ quick, log, ...(minutes === undefined ? {} : { minutes }) }));
  }
  const env = {
    date: new Date().toISOString(),
    quick,
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? '',
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    commit: gitHead(),
    durationS: Math.round((Date.now() - started) / 1000),
    /** Other work on the machine skews absolute numbers; the paired ratios are what to compare. */
    loadAverageAtEnd: os.loadavg().map((x) => Math.round(x * 100) / 100),
    loadAverageAtStart,
  };
  for (const r of results) for (const t of r.tables) process.stdout.write(`\n${renderText(t)}`);
  const dir = `${ROOT}bench/results/`;
  mkdirSync(dir, { recursive: true });
  // A partial run (some cases only) merges into the existing results instead of erasing the others.
  const previous = readPrevious(`${dir}latest.json`);
  const byName = new Map<string, CaseResult>(previous.map((r) => [r.name, r]));
  for (const r of results) byName.set(r.name, r);
  const all = Object.keys(CASES).flatMap((n) => (byName.has(n) ? [byName.get(n)!] : []));
  const stamp = `${env.date.slice(0, 16).replace('T', ' ')} UTC, Node ${env.node}, ${env.cpus} × ${env.cpuModel}, ${env.memGiB} GiB, load average ${loadAverageAtStart[0]} at start${quick ? ', --quick' : ''}`;
  writeFileSync(
    `${dir}latest.json`,
    `${JSON.stringify({ env, cases: all.map((r) => ({ name: r.name, data: r.data, tables: r.tables, charts: r.charts })) }, null, 2)}\n`,
  );
  const md = [`<!-- written by npm run bench; ${stamp} -->`, `_Measured ${stamp}._`, '', ...all.flatMap((r) => r.tables.map(renderMarkdown))].join('\n');
  writeFileSync(`${dir}latest.md`, md);
  const panels: Panel[] = all.flatMap((r) => r.charts);
  writeFileSync(`${dir}latest.svg`, renderSvg('mrtr-proxy benchmarks', `${stamp}; bars: median of repeats, whiskers: min–max`, panels));
  log(`wrote bench/results/latest.json, latest.md, latest.svg (${env.durationS} s)`);
}

function readPrevious(path: string): CaseResult[] {
  if (!existsSync(path)) return [];
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { cases: CaseResult[] }).cases ?? [];
  } catch {
    return [];
  }
}

function gitHead(): string {
  try {
    const head = readFileSync(`${ROOT}.git/HEAD`, 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    return readFileSync(`${ROOT}.git/${head.slice(5)}`, 'utf8').trim();
  } catch {
    return '';
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
