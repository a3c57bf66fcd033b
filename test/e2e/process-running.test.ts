import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { childPids, KeptProcFiles, MAX_THREADS, PASS_BUDGET_MS, processTreeRunning, statState, statThreads } from '../../src/upstream/child/process-running.js';
import { skipOrFail } from '../support/skip.js';
import { startThreaded } from '../support/threaded.js';

const noProc = skipOrFail('e2e/process-running', !existsSync('/proc/self/stat') && 'it reads processes from Linux /proc');
const noPython = skipOrFail('e2e/process-running, many threads', spawnSync('python3', ['-c', '']).status !== 0 && 'python3 is not installed');

const threaded = (n: number): Promise<ChildProcess> => startThreaded(n, 'ignore');

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

  it('reads the thread count after the command name', () => {
    const fields = (threads: string) => `S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 ${threads} 0 12345`;
    assert.equal(statThreads(`42 (node) ${fields('11')}`), 11);
    assert.equal(statThreads(`42 (a b) c)) ${fields('8001')}`), 8001);
    assert.equal(statThreads('42 (node) S 1 42'), undefined);
    assert.equal(statThreads(`42 (node) ${fields('x')}`), undefined);
  });

  it('reads child PIDs and nothing else', () => {
    assert.deepEqual(childPids('12 345 6'), [12, 345, 6]);
    assert.deepEqual(childPids(''), []);
    assert.deepEqual(childPids('0 -1 x 7'), [7]);
  });

  it('reads the same with its files kept open between passes, and closes them once the process ends', { skip: noProc }, async () => {
    // Waits on stdin; spins for a while on each line it reads.
    const spin = "process.stdin.on('data', () => { const end = Date.now() + 3000; while (Date.now() < end); })";
    const child = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(spin)}; true`], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
    const kept = new KeptProcFiles();
    try {
      const pid = await started(child);
      const read = () => processTreeRunning(pid, 'all', undefined, kept);
      for (let i = 0; i < 200 && read() !== false; i++) await sleep(10);
      assert.equal(read(), false);
      const open = kept.size;
      assert.ok(open > 2, `${open} files kept open (the wrapper's and node's threads)`);
      child.stdin!.write('go\n');
      for (let i = 0; i < 200 && read() !== true; i++) await sleep(10);
      assert.equal(read(), true, 'the same open files read the new state');
      process.kill(-child.pid!, 'SIGKILL');
      await new Promise((resolve) => child.once('close', resolve));
      assert.equal(read(), undefined);
      assert.equal(kept.size, 0, 'every file of the ended processes is closed');
    } finally {
      kept.close();
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
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

  it('reads a process with a few sleeping threads as waiting, one with more than it reads one by one as unknown', {
    skip: noProc || noPython,
  }, async () => {
    const few = await threaded(8);
    const many = await threaded(MAX_THREADS * 4);
    try {
      await settlesTo(few.pid!, false);
      // Its main thread alone can still be read; once it waits, the rest is not known.
      for (let i = 0; i < 200 && processTreeRunning(many.pid!, 'main') !== false; i++) await sleep(10);
      assert.equal(processTreeRunning(many.pid!, 'main'), false);
      for (let i = 0; i < 20; i++) assert.equal(processTreeRunning(many.pid!), undefined);
    } finally {
      few.kill('SIGKILL');
      many.kill('SIGKILL');
    }
  });

  it('stops a pass that outlives its budget, unknown', { skip: noProc }, async () => {
    const waiting = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const pid = await started(waiting);
      await settlesTo(pid, false);
      let clock = 0;
      // Each look at the clock finds the budget spent again.
      assert.equal(
        processTreeRunning(pid, 'all', () => (clock += PASS_BUDGET_MS + 1)),
        undefined,
      );
      assert.equal(
        processTreeRunning(pid, 'all', () => 0),
        false,
      );
    } finally {
      waiting.kill('SIGKILL');
    }
  });
});
