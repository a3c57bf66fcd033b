// `npm start` stopped the way a process manager stops it: SIGTERM or SIGHUP to npm's pid, and
// SIGHUP to the shell npm runs the script in. None of them reaches the launcher
// (examples/start-demo.mjs): npm passes on only SIGINT and SIGTERM, to its shell, and dies of a
// SIGHUP leaving that shell running. The launcher must still stop the proxy and the demo server,
// or the next `npm start` finds the port in use.
// `npm start` builds first, beside the other tests: tsc writes nothing when nothing changed, and
// the bundle step (scripts/bundle-bin.mjs) leaves unchanged files of dist/bin as they are.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { alive, descendants } from '../support/process-tree.js';
import { ROOT } from '../support/processes.js';
import { until } from '../support/wait.js';

const started: ChildProcess[] = [];
const seen = new Set<number>();
after(() => {
  for (const pid of seen) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const c of started) c.kill('SIGKILL');
});

/** Starts `command` (PORT=0) and waits for the proxy's start line; gives back the processes under it. */
async function launch(command: string, args: string[]): Promise<{ wrapper: ChildProcess; tree: { pid: number; args: string }[]; log: () => string }> {
  const wrapper = spawn(command, args, { cwd: ROOT, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(wrapper);
  let log = '';
  wrapper.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  wrapper.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  await until(() => /listening on http/.test(log), 120_000, `the proxy's start line under ${command} ${args.join(' ')}`);
  const tree = descendants(wrapper.pid!);
  for (const p of tree) seen.add(p.pid);
  assert.ok(
    tree.some((p) => p.args.includes('bin/mrtr-proxy.js')),
    `a proxy under it: ${JSON.stringify(tree)}`,
  );
  assert.ok(
    tree.some((p) => p.args.includes('dist/examples/demo-server.js')),
    `a demo server under it: ${JSON.stringify(tree)}`,
  );
  return { wrapper, tree, log: () => log };
}

async function allGone(tree: { pid: number; args: string }[], log: () => string): Promise<void> {
  await until(() => tree.every((p) => !alive(p.pid)), 15_000, 'every process of the demo to end').catch(() => {
    assert.fail(`left running: ${JSON.stringify(tree.filter((p) => alive(p.pid)))}\n${log().slice(-2000)}`);
  });
}

describe('npm start, stopped by a process manager', () => {
  it('leaves nothing running after SIGTERM to npm', async () => {
    const { wrapper, tree, log } = await launch('npm', ['start']);
    wrapper.kill('SIGTERM');
    await allGone(tree, log);
  });

  it('leaves nothing running after SIGHUP to npm', async () => {
    const { wrapper, tree, log } = await launch('npm', ['start']);
    wrapper.kill('SIGHUP');
    await allGone(tree, log);
  });

  it("leaves nothing running after SIGHUP to the script's shell", async () => {
    // As npm runs a script: a shell that waits for the launcher (`; :` keeps it from exec'ing).
    const { wrapper, tree, log } = await launch('sh', ['-c', 'node examples/start-demo.mjs; :']);
    wrapper.kill('SIGHUP');
    await allGone(tree, log);
  });
});
