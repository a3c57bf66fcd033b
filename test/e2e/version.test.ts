// The version is written once, in package.json: --version, --help and the clientInfo the proxy
// sends upstream (legacy initialize, modern probe) all read it from there.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HELP } from '../../src/cli/help.js';
import { DISCOVER } from '../../src/upstream/probe.js';
import { CLIENT_INFO, VERSION } from '../../src/version.js';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
const BIN = fileURLToPath(new URL('../../../bin/mrtr-proxy.js', import.meta.url));

describe('version', () => {
  it("is package.json's version", () => {
    assert.equal(VERSION, pkg.version);
    assert.deepEqual(CLIENT_INFO, { name: pkg.name, version: pkg.version });
  });

  it('--version prints it', () => {
    const r = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${pkg.version}\n`);
  });

  it('--help and the clientInfo sent upstream carry it', () => {
    assert.ok(HELP.startsWith(`mrtr-proxy ${pkg.version}: `));
    assert.deepEqual(DISCOVER.params._meta['io.modelcontextprotocol/clientInfo'], { name: 'mrtr-proxy', version: pkg.version });
  });
});
