// A clean install warns about nothing on a supported Node: every package the lock file installs
// admits the oldest release of each Node line the project supports (npm prints EBADENGINE for
// one that does not), and every package with an install script has an allowScripts decision
// (npm 11 lists the undecided ones; npm 12 skips their scripts). Read from package.json and
// package-lock.json, as npm reads them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const installed = Object.entries(lock.packages)
  .filter(([path]) => path !== '')
  .map(([path, entry]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), ...entry }));

/** The oldest release of each line a range admits: `^20.6.0 || ^22.0.0` gives 20.6.0 and 22.0.0. */
function oldestOfEachLine(range: string): string[] {
  return new semver.Range(range).set.map((comparators) => semver.minVersion(new semver.Range(comparators.map((c) => c.value).join(' ')))!.version);
}

/**
 * A checkout's `npm install` also installs the test tools, whose oldest Node 20 is later than the
 * package's (undici 7 needs 20.18.1); README.md says so. Node 22 and 24 are as for the package.
 */
const DEVELOPMENT_NODE = '^20.18.1 || ^22.0.0 || ^24.0.0';

/** The packages of the production (`dev` false) or development tree whose engines refuse `node`. */
function refusing(node: string, dev: boolean): string[] {
  return installed
    .filter((p) => (p.dev === true) === dev)
    .filter((p) => !Array.isArray(p.engines) && p.engines?.node !== undefined && !semver.satisfies(node, p.engines.node))
    .map((p) => `${p.name}@${p.version} wants node ${(p.engines as { node: string }).node}`);
}

describe('a clean install', () => {
  it("admits the package's dependencies on the oldest release of each supported Node line", () => {
    const lines = oldestOfEachLine(manifest.engines.node);
    assert.deepEqual(lines, ['20.6.0', '22.0.0', '24.0.0']);
    for (const node of lines) assert.deepEqual(refusing(node, false), [], `on Node ${node}`);
  });

  it("admits the checkout's development dependencies on the oldest release of each line README.md names", () => {
    for (const node of oldestOfEachLine(DEVELOPMENT_NODE)) assert.deepEqual(refusing(node, true), [], `on Node ${node}`);
    assert.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), /20\.18\.1/);
  });

  it('has an allowScripts decision for every package with an install script, and none for a package without one', () => {
    const withScripts = [...new Set(installed.filter((p) => p.hasInstallScript).map((p) => p.name))].sort();
    assert.deepEqual(Object.keys(manifest.allowScripts ?? {}).sort(), withScripts);
  });
});
