// The official legacy reference server, @modelcontextprotocol/server-everything, behind the proxy,
// over stdio and over its Streamable HTTP mode, driven by the official 2026-07-28 client.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, textOf } from '../support/client.js';
import { EVERYTHING, startProcess, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { freePort } from '../support/ports.js';
import { inputRequired, rpc } from '../support/rpc.js';

function suite(kind: 'stdio' | 'streamableHttp'): void {
  describe(`everything server over ${kind}`, () => {
    let legacy: Running | undefined;
    let proxy: ProxyProcess;
    let client: Client;
    before(async () => {
      if (kind === 'stdio') {
        proxy = await startProxy(['--root', 'file:///configured/root=configured', '--', process.execPath, EVERYTHING, 'stdio']);
      } else {
        // server-everything takes its port from PORT only: a free one, never a guess in the ephemeral range.
        const port = String(await freePort());
        legacy = await startProcess(process.execPath, [EVERYTHING, 'streamableHttp'], /listening on port (\d+)/, { env: { PORT: port } });
        proxy = await startProxy(['--root', 'file:///configured/root=configured', '--upstream', `http://127.0.0.1:${legacy.ready}/mcp`]);
      }
      client = await connectClient(proxy.url);
    });
    after(async () => {
      await client?.close();
      await proxy?.stop();
      await legacy?.stop();
    });

    it('describes the everything server and hides its legacy tasks capability', async () => {
      const d = (await rpc(proxy.url, 'server/discover')).body.result!;
      assert.equal((d['_meta'] as Record<string, { name: string }>)['io.modelcontextprotocol/serverInfo']!.name, 'mcp-servers/everything');
      assert.equal((d['capabilities'] as Record<string, unknown>)['tasks'], undefined);
    });

    it('lists the capability-dependent tools for a client that declares the capabilities', async () => {
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const t of ['trigger-elicitation-request', 'trigger-sampling-request', 'get-roots-list', 'echo']) assert.ok(names.includes(t), t);
      const bare = (await rpc(proxy.url, 'tools/list', {}, { caps: {} })).body.result!['tools'] as Array<{ name: string }>;
      assert.ok(!bare.some((t) => t.name === 'trigger-elicitation-request'), 'a session without elicitation has no elicitation tool');
    });

    it('bridges trigger-elicitation-request', async () => {
      const r = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
      assert.match(textOf(r), /User provided the requested information/);
      assert.match(textOf(r), /Ada/);
    });

    it('bridges trigger-sampling-request', async () => {
      const r = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hello', maxTokens: 10 } });
      assert.match(JSON.stringify(r.content), /sampled text/);
    });

    it("bridges get-roots-list after other calls: exactly the client's roots, never the configured ones", async () => {
      // everything asks for roots ~350 ms after initialize, outside any call, and caches the answer
      // per session; the proxy gives a client that declares roots a session told exactly its roots.
      assertClientRoots(textOf(await client.callTool({ name: 'get-roots-list', arguments: {} })));
      assertClientRoots(textOf(await client.callTool({ name: 'get-roots-list', arguments: {} })));
      assert.match(proxy.stderr(), /answered a legacy request locally[^\n]*roots\/list/);
    });

    it('relays progress of trigger-long-running-operation', async () => {
      const r = await rpc(
        proxy.url,
        'tools/call',
        { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
        { meta: { progressToken: 7 } },
      );
      const progress = r.notifications.filter((n) => n.method === 'notifications/progress');
      assert.equal(progress.length, 3);
      assert.ok(progress.every((n) => n.params!['progressToken'] === 7));
      assert.equal(r.body.result!['resultType'], 'complete');
    });

    it('forwards resources, templates and prompts', async () => {
      const resources = await client.listResources();
      assert.ok(resources.resources.length > 0);
      const first = resources.resources[0]!;
      const read = await client.readResource({ uri: first.uri });
      assert.equal(read.contents[0]!.uri, first.uri);
      const prompt = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris' } });
      assert.match(JSON.stringify(prompt.messages), /Paris/);
      const done = await rpc(proxy.url, 'completion/complete', {
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'E' },
      });
      assert.ok(Array.isArray((done.body.result!['completion'] as { values: unknown[] }).values));
    });

    it('asks through input_required with the raw wire shape', async () => {
      const r = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'trigger-elicitation-request', arguments: {} }, { caps: { elicitation: {} } }));
      const [key, req] = Object.entries(r.inputRequests)[0]!;
      assert.match(key, /^elicitation-\d+$/);
      assert.equal(req.method, 'elicitation/create');
      assert.ok((req.params!['requestedSchema'] as { properties: object }).properties);
    });
  });
}

/** The text of get-roots-list naming exactly the test client's one root (support/client.ts DEFAULT_ANSWERS). */
function assertClientRoots(text: string): void {
  assert.match(text, /Current MCP Roots \(1 total\)/, text);
  assert.match(text, /URI: file:\/\/\/work\/project\b/);
  assert.doesNotMatch(text, /configured/);
}

/** A proxy just started, whose first call is get-roots-list: the client's roots on that very call. */
function firstCall(kind: 'stdio' | 'streamableHttp'): void {
  describe(`everything server over ${kind}, get-roots-list as the first call of a fresh proxy`, () => {
    let legacy: Running | undefined;
    let proxy: ProxyProcess | undefined;
    after(async () => {
      await proxy?.stop();
      await legacy?.stop();
    });

    it("names exactly the client's roots", async () => {
      if (kind === 'stdio') {
        proxy = await startProxy(['--root', 'file:///configured/root=configured', '--', process.execPath, EVERYTHING, 'stdio']);
      } else {
        const port = String(await freePort());
        legacy = await startProcess(process.execPath, [EVERYTHING, 'streamableHttp'], /listening on port (\d+)/, { env: { PORT: port } });
        proxy = await startProxy(['--root', 'file:///configured/root=configured', '--upstream', `http://127.0.0.1:${legacy.ready}/mcp`]);
      }
      const client = await connectClient(proxy.url);
      try {
        assertClientRoots(textOf(await client.callTool({ name: 'get-roots-list', arguments: {} })));
        // And after a couple of other calls, on the same proxy.
        await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
        await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
        assertClientRoots(textOf(await client.callTool({ name: 'get-roots-list', arguments: {} })));
      } finally {
        await client.close();
      }
    });
  });
}

suite('stdio');
suite('streamableHttp');
firstCall('stdio');
firstCall('streamableHttp');
