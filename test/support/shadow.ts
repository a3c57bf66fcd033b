// The shadow-comparison pair for tests: the migrated twin (2026-07-28, HTTP on a free port) and a
// configuration that serves the legacy twin (stdio) shadowed by it.
import { writeConfig } from './config.js';
import { ROOT, startProcess, type Running } from './processes.js';

export const LEGACY_TWIN = `${ROOT}dist/test/fixtures/shadow-legacy.js`;
export const MIGRATED_TWIN = `${ROOT}dist/test/fixtures/shadow-migrated.js`;
export const COMPARISONS = 'mrtr_shadow_comparisons_total';

export async function startTwin(env: NodeJS.ProcessEnv = {}): Promise<Running & { url: string }> {
  const p = await startProcess(process.execPath, [MIGRATED_TWIN], /twin listening on (http:\/\/\S+)/, { env });
  return { ...p, url: p.ready };
}

/** `legacy` (the default upstream) shadowed by `migrated` at `candidateUrl`; `top` adds top-level keys. */
export function shadowConfig(candidateUrl: string, shadow: string, top = ''): string {
  return writeConfig(`${top}
default: legacy
upstreams:
  legacy:
    stdio: {command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(LEGACY_TWIN)}]}
    shadow: ${shadow}
  migrated:
    era: modern
    http: {url: ${JSON.stringify(candidateUrl)}}
`);
}
