// The prestarted legacy children (upstream/child/prestart.ts): taken once by the target they were started
// for, and ended when nobody takes them. Real child processes, bounded waits.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamResources } from '../../src/upstream/resources.js';
import { StdioTransport } from '../../src/upstream/transport/stdio-transport.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { sleep, until } from '../support/wait.js';

const sleeper = (tag: string) => ({ command: process.execPath, args: ['-e', 'setTimeout(() => {}, 20000)', tag] });

describe('prestarted legacy children', () => {
  const resources = new UpstreamResources();
  after(() => resources.close());
  const prestartChild = (t: Parameters<typeof resources.prestarted.start>[0]) => resources.prestarted.start(t);
  const takePrestarted = (t: Parameters<typeof resources.prestarted.take>[0]) => resources.prestarted.take(t);
  const endPrestarted = () => resources.prestarted.end();
  it('hands the child to the first taker of the same target only', async () => {
    const target = sleeper('a');
    prestartChild(target);
    const early = takePrestarted({ ...target, args: [...target.args] });
    assert.ok(early, 'the same command and arguments find the child');
    assert.equal(takePrestarted(target), undefined, 'taken once');
    let started = false;
    void early.spawned.then(() => (started = true));
    await until(() => started, 5000, 'the child to start');
    early.child.kill('SIGKILL');
  });

  it('ends children nobody took', async () => {
    const target = sleeper('b');
    prestartChild(target);
    const early = takePrestarted(target)!;
    const untaken = prestartChild(sleeper('c'));
    early.child.kill('SIGKILL');
    let ended = false;
    untaken.child.once('exit', () => (ended = true));
    endPrestarted();
    await until(() => ended, 5000, 'the untaken child to end');
    assert.equal(takePrestarted(sleeper('c')), undefined, 'forgotten');
  });

  /** Prestarts `node -e script`, lets it exit, hands it to a transport and returns the transport's exit report once it saw the end. */
  async function reportOfExitedPrestart(script: string): Promise<string | undefined> {
    const target = { command: process.execPath, args: ['-e', script] };
    prestartChild(target);
    await sleep(500);
    const transport = new StdioTransport(target, createLogger('error'), resources);
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    await until(() => closed, 5000, 'the transport to see the child end');
    return transport.exitReport();
  }

  it('a transport taking a child that already exited reports how it exited', async () => {
    assert.equal(await reportOfExitedPrestart('process.exit(7)'), 'exited with code 7');
  });

  it('a transport taking a child that already exited quotes what it wrote to stderr', async () => {
    assert.equal(
      await reportOfExitedPrestart("console.error('BOOM: missing DATABASE_URL'); process.exit(1)"),
      'exited with code 1; its last stderr lines: BOOM: missing DATABASE_URL',
    );
  });

  it('closing the transport of a command that does not exist resolves at once', async () => {
    const target = { command: '/nonexistent/mrtr-test-command', args: [] };
    prestartChild(target);
    const transport = new StdioTransport(target, createLogger('error'), resources);
    await assert.rejects(transport.start(), /ENOENT/);
    const began = Date.now();
    await transport.close();
    assert.ok(Date.now() - began < 500, `close took ${Date.now() - began} ms`);
  });
});
