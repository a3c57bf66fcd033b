// The official conformance suite's ten tasks-extension scenarios (SEP-2663) against the proxy:
// - with a 2025-11-25 tasks server behind it (test/fixtures/tasks-server.ts, the v1 SDK's
//   experimental tasks): the legacy server's tasks, translated;
// - with the same tools on a server without tasks (its --plain mode): the proxy's own tasks, from an
//   upstream's `tasks:` configuration. The composition scenario's tool gathers input before it goes
//   async, which is what `after:` is for, so it runs against a second upstream configured so.
// Each scenario runs alone with `--force`, since the CLI leaves extension scenarios out of a
// 2026-07-28 run.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatIssues, NODE22, runConformance } from '../support/conformance.js';
import { ROOT, startProcess, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { skipOrFail } from '../support/skip.js';

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
const skip = skipOrFail(
  'test/e2e/conformance-tasks.test.ts',
  !existsSync(NODE22) && 'Node 22 not fetched into .cache/node22 (run: node scripts/fetch-node.mjs; npm test does)',
);

/**
 * Scenarios run side by side against one proxy, as several clients would: each is its own
 * conformance client with its own sessions and tasks, and most of a run is the CLI starting.
 */
const SIDE_BY_SIDE = 4;

async function expectAllPass(urlOf: string | ((scenario: string) => string), upstream: string): Promise<void> {
  const queue = [...SCENARIOS];
  const results: Array<Awaited<ReturnType<typeof runConformance>>> = [];
  const runNext = async (): Promise<void> => {
    for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
      const result = await runConformance(typeof urlOf === 'string' ? urlOf : urlOf(scenario), {
        scenario,
        force: true,
        scenarioTimeoutMs: 60_000,
        timeoutMs: 120_000,
      });
      assert.ok(result.passed + (result.skipped ?? 0) > 0, `${scenario} ran no check:\n${result.raw.slice(-2000)}`);
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: SIDE_BY_SIDE }, runNext));
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const skipped = results.reduce((n, r) => n + (r.skipped ?? 0), 0);
  const failures = results.flatMap((r) => r.failures);
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
    await proxy.stop();
  });

  it('passes all ten: proxy-hosted tasks, stdio upstream without tasks', { timeout: 600_000 }, async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'mrtr-hosted-')), 'proxy.yaml');
    const upstream = (name: string, tasks: string[]) => [
      `  ${name}:`,
      '    stdio:',
      `      command: ${JSON.stringify(process.execPath)}`,
      `      args: [${JSON.stringify(FIXTURE)}, --plain]`,
      '    tasks:',
      ...tasks.map((line) => `      ${line}`),
    ];
    writeFileSync(
      config,
      [
        'upstreams:',
        ...upstream('hosted', [
          'tools: [slow_compute, protocol_error_job, confirm_delete, multi_input, test_tool_with_task]',
          'required: [failing_job]',
          'pollInterval: 0.1',
        ]),
        ...upstream('gather-first', ['tools: [test_tool_with_task]', 'after: 0.1']),
        '',
      ].join('\n'),
    );
    proxy = await startProxy(['--config', config]);
    const base = new URL(proxy.url).origin;
    await expectAllPass(
      (scenario) => `${base}/servers/${scenario === 'tasks-mrtr-composition' ? 'gather-first' : 'hosted'}/mcp`,
      'stdio without tasks, proxy-hosted',
    );
  });
});
