// The official conformance suite's ten tasks-extension scenarios (SEP-2663) against the proxy, with
// a 2025-11-25 tasks server behind it (test/fixtures/tasks-server.ts, the v1 SDK's experimental
// tasks): the legacy server's tasks, translated. Each scenario runs alone with `--force`, since the
// CLI leaves extension scenarios out of a 2026-07-28 run.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { formatIssues, NODE22, runConformance } from '../support/conformance.js';
import { ROOT, startProcess, startProxy, type ProxyProcess, type Running } from '../support/processes.js';

const SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

const FIXTURE = `${ROOT}dist/test/fixtures/tasks-server.js`;
const skip = !existsSync(NODE22) && 'Node 22 not fetched into .cache/node22 (run: node scripts/fetch-node.mjs; npm test does)';
if (skip) process.stderr.write(`SKIPPED test/e2e/conformance-tasks.test.ts: ${skip}\n`);

async function expectAllPass(url: string, upstream: string): Promise<void> {
  let passed = 0;
  let skipped = 0;
  const failures = [];
  for (const scenario of SCENARIOS) {
    const result = await runConformance(url, { scenario, force: true, scenarioTimeoutMs: 60_000, timeoutMs: 120_000 });
    passed += result.passed;
    skipped += result.skipped ?? 0;
    failures.push(...result.failures);
    assert.ok(result.passed + (result.skipped ?? 0) > 0, `${scenario} ran no check:\n${result.raw.slice(-2000)}`);
  }
  console.log(
    `tasks conformance (${upstream} upstream): ${SCENARIOS.length} scenarios, ${passed} checks passed, ${failures.length} failed, ${skipped} skipped`,
  );
  assert.deepEqual(failures, [], formatIssues(failures));
}

describe('official conformance suite, tasks extension scenarios', { skip }, () => {
  let proxy: ProxyProcess | undefined;
  let legacy: Running | undefined;
  after(async () => {
    await proxy?.stop();
    await legacy?.stop();
  });

  it('passes all ten: stdio upstream', { timeout: 600_000 }, async () => {
    proxy = await startProxy(['--', process.execPath, FIXTURE]);
    await expectAllPass(proxy.url, 'stdio');
    await proxy.stop();
  });

  it('passes all ten: Streamable HTTP upstream', { timeout: 600_000 }, async () => {
    legacy = await startProcess(process.execPath, [FIXTURE, '--http', '0'], /listening on (http:\/\/\S+)/);
    proxy = await startProxy(['--upstream', legacy.ready]);
    await expectAllPass(proxy.url, 'Streamable HTTP');
  });
});
