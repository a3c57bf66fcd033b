// Conformance runner: turns a finished run (checks.json files, stdout summary, exit code) into a
// ConformanceResult; whole-run problems become synthetic failures.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConformanceCheck, ConformanceIssue, ConformanceResult, ScenarioOutcome } from './types.js';

// The CLI writes one `<resultsDir>/server-<scenario>-<timestamp>/checks.json` per scenario run (an
// array of checks with status SUCCESS | FAILURE | WARNING | SKIPPED | INFO) when given
// `--output-dir`; that is the primary source here. Its stdout summary (`✓|✗ <scenario>: N passed, M
// failed`, `Total: N passed, M failed`) fills the gaps: a scenario that crashed has no checks.json.
// Exit code: 1 when any FAILURE was seen (with --requirements: any in a scored scenario), else 0.
// WARNING (SHOULD-level) and SKIPPED checks never fail a run; they are reported separately.

/** `server-<scenario>-<ISO time with : and . as ->` */
const RESULT_DIR = /^server-(.+)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)$/;
const SUMMARY_LINE = /^([✓✗]) (\S+): (\d+) passed, (\d+) failed$/gm;

function messageOf(check: ConformanceCheck): string {
  if (check.errorMessage) return check.errorMessage;
  const details = check.details as { message?: unknown } | undefined;
  if (typeof details?.message === 'string') return details.message;
  return check.description ?? check.name ?? check.id;
}

export async function collect(
  resultsDir: string,
  raw: string,
  exitCode: number | null,
  timedOut: boolean,
  aborted: boolean,
  timeoutMs: number,
): Promise<ConformanceResult> {
  const scenarios: Record<string, ScenarioOutcome> = {};

  // 1. checks.json per scenario (a scenario run twice keeps its last run).
  const entries = (await readdir(resultsDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
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
    failures.push({
      scenario: '(runner)',
      check: 'exit-code',
      message: `conformance CLI exited with ${String(exitCode)} without reporting a failed check:\n${tail}`,
    });
  } else if (exitCode === 0 && Object.keys(scenarios).length === 0) {
    // Nothing ran (e.g. every scenario inapplicable at the spec version): not a failure, but say so.
    warnings += 1;
    warningList.push({ scenario: '(runner)', check: 'nothing-ran', message: 'the conformance CLI ran no scenario' });
  }

  return { passed, failed, skipped, warnings, failures, warningList, scenarios, exitCode, timedOut, raw };
}
