// Conformance runner: the shapes of a run's options and outcome (checks as the CLI writes them,
// issues, per-scenario counts, the whole result).

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
  /** `--force`: run a scenario the chosen spec version would skip (the extension scenarios, such as tasks). */
  force?: boolean;
  /** `--timeout` per scenario in ms (the CLI's default is 30000). */
  scenarioTimeoutMs?: number;
  /** `--expected-failures <path>` (a YAML baseline); changes the exit code, not the counts. */
  expectedFailures?: string;
  signal?: AbortSignal;
}
