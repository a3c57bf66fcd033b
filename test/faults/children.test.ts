// Legacy children end with the proxy, even a SIGKILLed one, and a child that exits at once says
// how and what it last wrote.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { alive, FIXTURE, PROXY_BIN, startProxy } from '../support/processes.js';
import { until } from '../support/wait.js';

describe('legacy children', () => {
  it('do not outlive a SIGKILLed proxy, even when they ignore their stdin closing', async () => {
    // At debug: what a child writes before its first message (its pid here) is a start-up detail.
    const proxy = await startProxy(['--log-level', 'debug', '--', process.execPath, FIXTURE, '--linger']);
    await until(() => /fixture ready on stdio \(pid \d+\)/.test(proxy.stderr()), 5000, 'a started child');
    const pids = [...proxy.stderr().matchAll(/fixture ready on stdio \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    assert.ok(pids.every(alive), 'the children run');
    const exited = once(proxy.child, 'exit');
    proxy.child.kill('SIGKILL');
    await exited;
    await until(() => !pids.some(alive), 5000, `children ${pids.join(', ')} gone after the proxy was SIGKILLed`);
  });

  it("do not outlive a SIGKILL to the proxy's whole process group, even when they ignore their stdin closing", async () => {
    // The proxy leads a process group of its own, as under a supervisor that kills the group: the
    // signal reaches the proxy and everything in its group at once, and nothing of the test.
    const proxy = await startProxy(['--log-level', 'debug', '--', process.execPath, FIXTURE, '--linger'], {}, { detached: true });
    await until(() => /fixture ready on stdio \(pid \d+\)/.test(proxy.stderr()), 5000, 'a started child');
    const pids = [...proxy.stderr().matchAll(/fixture ready on stdio \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    assert.ok(pids.every(alive), 'the children run');
    const exited = once(proxy.child, 'exit');
    process.kill(-proxy.child.pid!, 'SIGKILL');
    await exited;
    await until(() => !pids.some(alive), 5000, `children ${pids.join(', ')} gone after the proxy's process group was SIGKILLed`);
  });

  it('report the exit code and the last stderr lines of a command that exits at once', () => {
    const r = spawnSync(process.execPath, [PROXY_BIN, '--port', '0', '--', process.execPath, FIXTURE, '--exit-at-once'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /the legacy server exited with code 3; its last stderr lines: fixture: cannot open the database \| fixture: giving up/);
  });

  it('report why they were stopped when their stdout is no longer framed (a line past the size of a message)', () => {
    const r = spawnSync(process.execPath, [PROXY_BIN, '--port', '0', '--', process.execPath, FIXTURE, '--flood-stdout-at-once'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      /the legacy server was stopped: it wrote a line of more than 10485760 bytes on stdout \(the most one message may have\), and (exited with code \d+|was killed by SIG\w+)/,
    );
  });
});
