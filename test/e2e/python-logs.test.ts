// Log lines of a fastmcp 2.x server (mcp 1.x underneath), which logs with ctx.info() without
// declaring the logging capability: its own legacy client gets every line, and so must a
// 2026-07-28 client that asks for them (io.modelcontextprotocol/logLevel) through the proxy, over
// a stdio and a Streamable HTTP upstream, filtered by the level it asked for.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { wireNotifications } from '../support/compat-features.js';
import { startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { PY_FIXTURES, pythonOf, startPythonHttp } from '../support/python.js';
import { rpc } from '../support/rpc.js';

const python = pythonOf('fastmcp2', 'e2e/python-logs');
const SERVER = `${PY_FIXTURES}fastmcp2_server.py`;

/** What the server's own legacy client hears during log_three: its log lines and progress, off the wire. */
async function legacyHears(transport: StdioClientTransport | StreamableHTTPClientTransport) {
  const client = new LegacyClient({ name: 'legacy', version: '1' }, { capabilities: {} });
  await client.connect(transport);
  const heard = wireNotifications(transport);
  const caps = client.getServerCapabilities() ?? {};
  await client.callTool({ name: 'log_three', arguments: {} }, undefined, { onprogress: () => {} });
  await client.close();
  return { logs: heard.logs, progress: heard.progress, caps };
}

function suite(kind: 'stdio' | 'http'): void {
  describe(`fastmcp 2.13.3 log lines over a ${kind} upstream`, { skip: python === undefined && 'no fastmcp2 stack (SKIPPED line above)' }, () => {
    let upstream: (Running & { url: string }) | undefined;
    let proxy: ProxyProcess;
    let direct: Awaited<ReturnType<typeof legacyHears>>;
    before(async () => {
      if (kind === 'http') upstream = await startPythonHttp(python!, 'fastmcp2_server.py');
      direct = await legacyHears(
        upstream ? new StreamableHTTPClientTransport(new URL(upstream.url)) : new StdioClientTransport({ command: python!, args: [SERVER], stderr: 'ignore' }),
      );
      proxy = await startProxy(upstream ? ['--upstream', upstream.url] : ['--', python!, SERVER]);
    });
    after(async () => {
      await proxy?.stop();
      await upstream?.stop();
    });

    it('is a server that logs without declaring logging, and its own client hears all three lines', () => {
      assert.equal('logging' in direct.caps, false);
      assert.equal(direct.logs.length, 3);
      assert.equal(direct.progress.length, 3);
    });

    it('declares logging in server/discover: the proxy relays its lines', async () => {
      const caps = (await rpc(proxy.url, 'server/discover')).body.result!['capabilities'] as Record<string, unknown>;
      assert.deepEqual(caps['logging'], {});
    });

    it('relays every line to a client that asks for debug, with the progress, in the order the server sent them', async () => {
      const r = await rpc(
        proxy.url,
        'tools/call',
        { name: 'log_three', arguments: {} },
        { meta: { 'io.modelcontextprotocol/logLevel': 'debug', progressToken: 'p' } },
      );
      assert.equal(r.body.result?.['isError'], false);
      const logs = r.notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params);
      assert.deepEqual(logs, direct.logs);
      const progress = r.notifications.filter((n) => n.method === 'notifications/progress').map((n) => n.params);
      assert.deepEqual(
        progress,
        direct.progress.map((p) => ({ ...(p as object), progressToken: 'p' })),
      );
    });

    it('filters by the level asked for, as logging/setLevel would have', async () => {
      const r = await rpc(proxy.url, 'tools/call', { name: 'log_three', arguments: {} }, { meta: { 'io.modelcontextprotocol/logLevel': 'warning' } });
      const logs = r.notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params);
      assert.deepEqual(logs, [direct.logs[1]]);
    });

    it('sends no line to a client that did not ask, and counts nothing as dropped', async () => {
      const r = await rpc(proxy.url, 'tools/call', { name: 'log_three', arguments: {} });
      assert.deepEqual(
        r.notifications.filter((n) => n.method === 'notifications/message'),
        [],
      );
      assert.doesNotMatch(proxy.stderr(), /could not be delivered/);
    });
  });
}

suite('stdio');
suite('http');
