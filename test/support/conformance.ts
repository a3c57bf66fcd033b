// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, server mode) against a
// URL and reports the outcome as data. The suite needs Node 22, so it runs on the pinned binary in
// .cache/node22 (fetched by scripts/fetch-node.mjs before the tests), in a child process that is always gone when the returned promise settles.
//
// The pieces live in test/support/conformance/: command.ts (paths, arguments), spawn.ts (the child
// process), collect.ts (reading checks.json and the stdout summary) and types.ts.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect } from './conformance/collect.js';
import { CONFORMANCE_CLI, NODE22, conformanceArgs } from './conformance/command.js';
import { spawnBounded } from './conformance/spawn.js';
import type { ConformanceIssue, ConformanceOptions, ConformanceResult } from './conformance/types.js';

export { CONFORMANCE_CLI, NODE22, ROOT, conformanceArgs } from './conformance/command.js';
export type { ConformanceCheck, ConformanceIssue, ConformanceOptions, ConformanceResult, ScenarioOutcome } from './conformance/types.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the colour codes this strips.
const ANSI = /\u001b\[[0-9;]*m/g;

export async function runConformance(url: string, opts: ConformanceOptions = {}): Promise<ConformanceResult> {
  if (!existsSync(NODE22)) throw new Error(`Node 22 binary not found at ${NODE22} (run: node scripts/fetch-node.mjs)`);
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

/** One line per failure, for assertion messages. */
export function formatIssues(issues: readonly ConformanceIssue[]): string {
  return issues.map((i) => `  ${i.scenario} › ${i.check}: ${i.message.split('\n')[0]}`).join('\n');
}
