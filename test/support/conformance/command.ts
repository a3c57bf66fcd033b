// Conformance runner: where the suite's CLI and the Node 22 binary it needs are, and the CLI
// arguments for a run.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE22 } from '../node-binaries.js';
import type { ConformanceOptions } from './types.js';

export { NODE22 };

const CLI_REL = 'node_modules/@modelcontextprotocol/conformance/dist/index.js';

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
  if (opts.force) args.push('--force');
  if (opts.scenarioTimeoutMs !== undefined) args.push('--timeout', String(opts.scenarioTimeoutMs));
  if (opts.expectedFailures !== undefined) args.push('--expected-failures', opts.expectedFailures);
  return args;
}
