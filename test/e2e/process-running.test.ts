import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { childPids, processTreeRunning, statState } from '../../src/upstream/child/process-running.js';
import { skipOrFail } from '../support/skip.js';

const noProc = skipOrFail('e2e/process-running', !existsSync('/proc/self/stat') && 'it reads processes from Linux /proc');

async function started(child: ChildProcess): Promise<number> {
  await new Promise<void>((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  return child.pid!;
}

/** Reads until `want` is seen (a process takes a moment to reach its loop or its sleep). */
async function settlesTo(pid: number, want: boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (processTreeRunning(pid) === want) return;
    await sleep(10);
  }
  assert.fail(`process ${pid} never read as ${want ? 'running' : 'waiting'}`);
}

describe('process-running', () => {
  it('reads the state after the command name, whatever the name holds', () => {
    assert.equal(statState('42 (node) S 1 42 42 0'), 'S');
    assert.equal(statState('42 (a) b (c)) R 1 42'), 'R', 'a name with spaces and a closing parenthesis');
    assert.equal(statState('42 (node)'), undefined);
    assert.equal(statState('garbage'), undefined);
  });

  it('reads child PIDs and nothing else', () => {
    assert.deepEqual(childPids('12 345 6'), [12, 345, 6]);
    assert.deepEqual(childPids(''), []);
    assert.deepEqual(childPids('0 -1 x 7'), [7]);
  });

  it('is unknown for a process that does not exist', { skip: noProc }, () => {
    assert.equal(processTreeRunning(2 ** 22 + 1), undefined);
  });

  it('tells a spinning process from a waiting one, through a wrapper', { skip: noProc }, async () => {
    const waiting = spawn('sh', ['-c', 'sleep 30; true'], { stdio: 'ignore', detached: true });
    const spinning = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} -e "for(;;){}"; true`], { stdio: 'ignore', detached: true });
    try {
      const [w, s] = await Promise.all([started(waiting), started(spinning)]);
      await settlesTo(w, false);
      await settlesTo(s, true);
    } finally {
      for (const child of [waiting, spinning]) if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }
  });

  it('reads a process as running while another of its threads runs and its main thread waits', { skip: noProc }, async () => {
    // Servers that hand their stdout writes to a worker thread (Python's anyio) look like this while they write.
    const script = `const { Worker } = require('node:worker_threads'); new Worker('for(;;){}', { eval: true }); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    try {
      await settlesTo(await started(child), true);
      for (let i = 0; i < 20; i++) assert.equal(processTreeRunning(child.pid!), true);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
