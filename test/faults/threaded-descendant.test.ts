// A legacy child whose descendant has thousands of sleeping threads: reading whether it runs (the
// gather of each round) must not block the proxy's event loop for a time that grows with them, and
// its rounds still close (by timing, once it cannot be read thread by thread).
// run-alone: it times /healthz while the proxy reads thousands of threads, which a neighbour's
// load would slow as much as the fault it looks for.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { ALL_CAPS, inputRequired, rpc } from '../support/rpc.js';
import { skipOrFail } from '../support/skip.js';
import { sleep } from '../support/wait.js';

const THREADS = 4000;
const ROUNDS = 10;
const noPython = skipOrFail(
  'faults/threaded-descendant',
  spawnSync('python3', ['-c', '']).status !== 0 && 'python3 is not installed: the threaded descendant cannot be started',
);

/** One interactive call: its round (returned: how long it took to close), then the answer. */
async function askAndAnswer(url: string, timeoutMs = 10_000): Promise<number> {
  const started = performance.now();
  const reply = await rpc(url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ALL_CAPS, signal: AbortSignal.timeout(timeoutMs) });
  const { inputRequests, requestState } = inputRequired(reply);
  const roundMs = performance.now() - started;
  assert.equal(inputRequests['elicitation-1']?.method, 'elicitation/create');
  const answered = await rpc(
    url,
    'tools/call',
    { name: 'ask-name', arguments: {}, requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } } },
    { caps: ALL_CAPS, signal: AbortSignal.timeout(timeoutMs) },
  );
  assert.match(JSON.stringify(answered.body.result), /Ada/);
  return roundMs;
}

describe('a legacy child with a descendant of many sleeping threads', { skip: noPython }, () => {
  let proxy: ProxyProcess;
  before(async () => {
    // One child (no spare): each would start a descendant of its own.
    proxy = await startProxy(['--spare-sessions', '0', '--', process.execPath, FIXTURE, '--threaded-descendant', String(THREADS)]);
    // The session an interactive call runs on, started before anything is timed.
    await askAndAnswer(proxy.url, 60_000);
  });
  after(async () => {
    await proxy?.stop();
  });

  it(`keeps /healthz answering within 100 ms while ${ROUNDS} rounds close`, async () => {
    const healthz = proxy.url.replace(/\/mcp$/, '/healthz');
    let done = false;
    const rounds = (async () => {
      try {
        for (let i = 0; i < ROUNDS; i++) {
          const roundMs = await askAndAnswer(proxy.url);
          assert.ok(roundMs < 2000, `round ${i} closed after ${roundMs} ms`);
        }
      } finally {
        done = true;
      }
    })();
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      const ok = await fetch(healthz, { signal: AbortSignal.timeout(5000) }).then(
        (r) => r.ok,
        () => false,
      );
      latencies.push(ok ? performance.now() - started : Number.POSITIVE_INFINITY);
      await sleep(5);
    }
    await rounds;
    // Nine in ten within 100 ms and none past a second: on a shared machine a lone probe may wait for a CPU.
    const sorted = latencies.toSorted((a, b) => a - b);
    const shown = sorted.map((l) => l.toFixed(0)).join(' ');
    assert.ok(sorted.length >= 10, `only ${sorted.length} probes: ${shown}`);
    assert.ok(sorted[Math.floor(sorted.length * 0.9)]! < 100, `/healthz latencies (ms): ${shown}`);
    assert.ok(sorted.at(-1)! < 1000, `/healthz latencies (ms): ${shown}`);
  });
});
