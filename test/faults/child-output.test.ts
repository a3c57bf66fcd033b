// A legacy child's hostile output: a huge stderr line (one built to make a backtracking pattern
// stall), a stderr line that never ends, a stdout line past the size of a message. The proxy keeps
// answering, its memory stays bounded, and what it cut or refused is said in its log.
// run-alone: it times /healthz while the proxy reads a hostile child, which a neighbour's load
// would slow as much as the fault it looks for.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { rpc } from '../support/rpc.js';
import { sleep, until } from '../support/wait.js';

const MiB = 1024 * 1024;

/** The resident memory of a process, in bytes (Linux). */
function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/**
 * The latency of each /healthz asked while `work` runs and a little after (at least `count`), in ms;
 * a stalled one ends the probing.
 */
async function healthzDuring(url: string, work: Promise<unknown>, count = 40): Promise<number[]> {
  const healthz = url.replace(/\/mcp$/, '/healthz');
  let done = false;
  void work.finally(() => sleep(200).then(() => (done = true)));
  const latencies: number[] = [];
  while (!done || latencies.length < count) {
    const started = performance.now();
    const ok = await fetch(healthz, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    latencies.push(ok ? performance.now() - started : Number.POSITIVE_INFINITY);
    if (!ok) break;
    await sleep(10);
  }
  return latencies;
}

describe("a legacy child's hostile output", () => {
  let proxy: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--', process.execPath, FIXTURE]);
    // Started before anything is timed: a legacy start-up is work of its own.
    await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'warm' } });
  });
  after(async () => {
    await proxy?.stop('SIGKILL');
  });

  // A backtracking pattern took seconds over a few hundred kB of this line, and minutes over 1 MiB.
  it('a 1 MiB stderr line built against a backtracking pattern leaves /healthz answering within 100 ms, and is cut and counted', async () => {
    const call = rpc(
      proxy.url,
      'tools/call',
      { name: 'flood-stderr', arguments: { bytes: MiB, unit: 'aError.', newline: true } },
      { signal: AbortSignal.timeout(15_000) },
    );
    const latencies = await healthzDuring(proxy.url, call);
    // Nine in ten within 100 ms and none past a second: on a shared machine a lone probe may wait for a CPU.
    const sorted = latencies.toSorted((a, b) => a - b);
    const shown = sorted.map((l) => l.toFixed(0)).join(' ');
    assert.ok(sorted[Math.floor(sorted.length * 0.9)]! < 100, `/healthz latencies (ms): ${shown}`);
    assert.ok(sorted.at(-1)! < 1000, `/healthz latencies (ms): ${shown}`);
    assert.match(JSON.stringify((await call).body.result), /wrote 1048576 bytes on stderr/);
    await until(() => proxy.stderr().includes('"truncatedBytes":1040384'), 5000, 'the cut line in the log');
  });

  it("a stderr line that never ends does not grow the proxy's memory", async () => {
    const pid = proxy.child.pid!;
    const before = rssOf(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
    const call = await rpc(
      proxy.url,
      'tools/call',
      { name: 'flood-stderr', arguments: { bytes: 200 * MiB, unit: 'x', newline: false } },
      { signal: AbortSignal.timeout(60_000) },
    );
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(pid));
    assert.match(JSON.stringify(call.body.result), /wrote 209715200 bytes on stderr/);
    assert.ok(peak - before < 48 * MiB, `RSS ${Math.round(before / MiB)} -> ${Math.round(peak / MiB)} MiB while 200 MiB arrived with no newline`);
  });

  it('a stdout line past the size of a message ends its session, saying so, and the next call gets a new one', async () => {
    const call = await rpc(proxy.url, 'tools/call', { name: 'flood-stdout', arguments: { bytes: 12 * MiB } }, { signal: AbortSignal.timeout(30_000) });
    assert.match(call.body.error?.message ?? '', /the legacy server session ended during the call/);
    await until(() => /"limitBytes":10485760,"message":"upstream server stdout line too long: closing its session"/.test(proxy.stderr()), 5000, 'the warning');
    const next = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'still here' } }, { signal: AbortSignal.timeout(30_000) });
    assert.match(JSON.stringify(next.body.result), /echo: still here/);
  });
});
