// Writes configuration files for tests into a temporary folder.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
