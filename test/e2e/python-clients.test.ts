// Real 2026-07-28 clients on Python through the proxy, in front of the fastmcp 2.13.3 fixture (a
// legacy server): mcp 2.3.0's mcp.Client and fastmcp 4.0.10's Client, each running every feature
// (fixtures/python/*_client.py print one JSON line per feature). From wheels
// (scripts/python-stacks.mjs); a missing stack is SKIPPED with a line saying why.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startProxy, type ProxyProcess } from '../support/processes.js';
import { PY_FIXTURES, type PythonStack, pythonOf } from '../support/python.js';

const run = promisify(execFile);
const server = pythonOf('fastmcp2', 'e2e/python-clients (the server)');
const FEATURES = ['connect', 'tools', 'logs', 'progress', 'elicitation', 'sampling', 'roots during a call', 'resources', 'prompts'];

function clientSuite(label: string, stack: PythonStack, script: string): void {
  const python = pythonOf(stack, `e2e/python-clients (${label})`);
  const skip = (server === undefined || python === undefined) && 'a Python stack is not installed (SKIPPED line above)';
  describe(`${label} through the proxy, in front of a fastmcp 2.13.3 server`, { skip }, () => {
    let proxy: ProxyProcess;
    let heard: Map<string, { ok: boolean; detail: unknown }>;
    before(async () => {
      proxy = await startProxy(['--', server!, `${PY_FIXTURES}fastmcp2_server.py`]);
      const { stdout } = await run(python!, [`${PY_FIXTURES}${script}`, proxy.url], { timeout: 60_000 });
      heard = new Map(
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { feature: string; ok: boolean; detail: unknown })
          .map((r) => [r.feature, r]),
      );
    });
    after(() => proxy?.stop());

    for (const feature of FEATURES) {
      it(`${feature} works`, () => {
        const r = heard.get(feature);
        assert.ok(r, `the client reported ${feature}`);
        assert.equal(r.ok, true, JSON.stringify(r.detail));
      });
    }

    it('spoke 2026-07-28: no legacy initialize reached the proxy', () => {
      assert.doesNotMatch(proxy.stderr(), /"method":"initialize"/);
      assert.match(proxy.stderr(), /"method":"tools\/call"/);
    });
  });
}

clientSuite('mcp 2.3.0 mcp.Client', 'mcp2', 'mcp2_client.py');
clientSuite('fastmcp 4.0.10 Client', 'fastmcp4', 'fastmcp4_client.py');
