// Writes configuration files for tests into a temporary folder.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE } from './processes.js';

const dir = mkdtempSync(join(tmpdir(), 'mrtr-config-'));
let n = 0;

export function writeConfig(yaml: string): string {
  const path = join(dir, `proxy-${++n}.yaml`);
  writeFileSync(path, yaml);
  return path;
}

export function rewriteConfig(path: string, yaml: string): void {
  writeFileSync(path, yaml);
}

/** A configuration file: the legacy test fixture over stdio as the one upstream `fixture`, with `tasks` (a YAML flow map) as its tasks: settings. */
export function hostedFixtureConfig(tasks: string): string {
  return writeConfig(
    [
      'upstreams:',
      '  fixture:',
      '    stdio:',
      `      command: ${JSON.stringify(process.execPath)}`,
      `      args: [${JSON.stringify(FIXTURE)}]`,
      `    tasks: ${tasks}`,
      '',
    ].join('\n'),
  );
}
