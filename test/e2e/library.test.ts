// The library API as a program embedding the proxy uses it: createProxy with the object the YAML
// file describes, real legacy fixtures over stdio, reload, close; never process.exit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigFileError, createProxy, type MrtrProxy, StartError } from '../../src/index.js';
import { FIXTURE, TEST_STATE_KEY } from '../support/processes.js';
import { ALL_CAPS, inputRequired, rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';
import { WATCHDOG_NAME } from '../../src/upstream/child/watchdog-sh.js';

const fixture = { stdio: { command: process.execPath, args: [FIXTURE] } };
const env = { MRTR_STATE_KEY: TEST_STATE_KEY };
const at = (url: string, name: string) => url.replace(/\/mcp$/, `/servers/${name}/mcp`);
const echo = async (url: string) => (await rpc(url, 'tools/call', { name: 'echo', arguments: { text: 'lib' } })).body;

describe('createProxy', () => {
  const realExit = process.exit;
  let proxy: MrtrProxy;
  before(async () => {
    process.exit = ((code?: number) => {
      throw new Error(`process.exit(${code}) called by the library`);
    }) as typeof process.exit;
    proxy = await createProxy({ listen: { host: '127.0.0.1', port: 0 }, logLevel: 'error', default: 'a', upstreams: { a: fixture } }, { env });
  });
  after(async () => {
    await proxy?.close();
    process.exit = realExit;
  });

  it('serves the configuration object at its url', async () => {
    assert.match(proxy.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.deepEqual((await echo(proxy.url)).result?.['content'], [{ type: 'text', text: 'echo: lib' }]);
  });

  it('reloads a new object, and rejects a bad one with every problem while the running one stays', async () => {
    await proxy.reload({ default: 'a', logLevel: 'error', upstreams: { a: fixture, b: { ...fixture, maxSessions: 2 } } });
    assert.deepEqual((await echo(at(proxy.url, 'b'))).result?.['content'], [{ type: 'text', text: 'echo: lib' }]);
    await assert.rejects(
      proxy.reload({ default: 'zz', upstreams: { a: { http: { url: 'ftp://x' } } } } as never),
      (err: unknown) => err instanceof ConfigFileError && /default: 'zz' is not one of the upstreams/.test(err.message) && /http\.url/.test(err.message),
    );
    assert.deepEqual((await echo(at(proxy.url, 'b'))).result?.['content'], [{ type: 'text', text: 'echo: lib' }]);
  });

  it('rejects a bad object and an unreachable upstream with errors, not an exit', async () => {
    await assert.rejects(createProxy({ upstreams: {} }, { env }), ConfigFileError);
    await assert.rejects(
      createProxy({ listen: { port: 0 }, logLevel: 'error', upstreams: { x: { http: { url: 'http://127.0.0.1:9/mcp' }, connectTimeout: 2 } } }, { env }),
      StartError,
    );
  });

  it('runs what the object describes as the CLI does: the audit file, metrics, client authentication', async () => {
    const audit = join(mkdtempSync(join(tmpdir(), 'mrtr-lib-')), 'audit.jsonl');
    const audited = await createProxy({ listen: { port: 0 }, logLevel: 'error', audit: { file: audit }, upstreams: { a: fixture } }, { env });
    try {
      const first = inputRequired(await rpc(audited.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ALL_CAPS }));
      const answers = { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } };
      await rpc(audited.url, 'tools/call', { name: 'ask-name', arguments: {}, requestState: first.requestState, inputResponses: answers }, { caps: ALL_CAPS });
      const metrics = await fetch(audited.url.replace(/\/mcp$/, '/metrics'));
      assert.match(await metrics.text(), /^mrtr_input_required_total\{[^}]*input="elicitation"[^}]*\} 1$/m);
    } finally {
      await audited.close();
    }
    // Flushed on close: one line for the one interactive call.
    const lines = readFileSync(audit, 'utf8').trim().split('\n');
    assert.equal(lines.length, 1);
    assert.equal((JSON.parse(lines[0]!) as { target: string }).target, 'ask-name');

    const guarded = await createProxy(
      { listen: { port: 0 }, logLevel: 'error', clientAuth: { issuer: 'http://127.0.0.1:9/' }, upstreams: { a: fixture } },
      { env },
    );
    try {
      const refused = await fetch(guarded.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get('www-authenticate') ?? '', /^Bearer .*resource_metadata=/);
    } finally {
      await guarded.close();
    }
  });

  it('closes: the endpoint stops answering', async () => {
    const second = await createProxy({ listen: { port: 0 }, logLevel: 'error', upstreams: { a: fixture } }, { env });
    assert.equal((await echo(second.url)).result?.['isError'] ?? false, false);
    await second.close();
    await assert.rejects(fetch(second.url, { method: 'POST' }));
  });
});

describe('two proxies in one process', () => {
  it('share nothing: each has its own legacy children and watchdog, and closing one leaves the other serving', async () => {
    const config = { listen: { host: '127.0.0.1', port: 0 }, logLevel: 'error' as const, upstreams: { a: fixture } };
    const first = await createProxy(config, { env });
    const second = await createProxy(config, { env });
    try {
      assert.notEqual(first.url, second.url);
      for (const p of [first, second]) assert.deepEqual((await echo(p.url)).result?.['content'], [{ type: 'text', text: 'echo: lib' }]);
      const watchdogs = () => ownChildren().filter((c) => c.cmd.includes(WATCHDOG_NAME));
      assert.equal(watchdogs().length, 2, 'one watchdog per proxy');
      const before = ownChildren().filter((c) => c.cmd.includes(FIXTURE));
      await first.close();
      await until(() => watchdogs().length === 1, 5000, "the closed proxy's watchdog to go");
      const left = ownChildren().filter((c) => c.cmd.includes(FIXTURE));
      assert.ok(left.length > 0 && left.length < before.length, `${before.length} legacy children, ${left.length} after the first proxy closed`);
      assert.deepEqual((await echo(second.url)).result?.['content'], [{ type: 'text', text: 'echo: lib' }]);
    } finally {
      await first.close().catch(() => {});
      await second.close();
    }
  });
});

/** This process's child processes and their command lines (Linux /proc). */
function ownChildren(): Array<{ pid: number; cmd: string }> {
  const pids = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return pids.map((pid) => {
    try {
      return { pid, cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ') };
    } catch {
      return { pid, cmd: '' };
    }
  });
}
