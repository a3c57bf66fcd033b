// The reverse bridge: a 2025-era client (v1 SDK Client, initialize + Mcp-Session-Id) in front of a
// 2026-07-28 server (official v2 SDK) through the proxy, its era probed (`era: auto`). The server's
// input_required rounds reach the client as legacy elicitation, sampling and roots requests, and
// the tools' results are computed from the client's answers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  EmptyResultSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { ClientCapabilities, ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { ROOT, startProcess, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { until } from '../support/wait.js';
import { writeConfig } from '../support/config.js';
import { startAuthServer, type AuthServer, type TestClient } from '../support/auth-server.js';
import { post } from '../support/rpc.js';

const SERVER = `${ROOT}dist/test/fixtures/modern-asking-server.js`;
const ALL: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

type Elicit = (r: ElicitRequest['params']) => Promise<Record<string, unknown>> | Record<string, unknown>;

async function legacyClient(url: string, capabilities: ClientCapabilities, elicit: Elicit = () => ({ action: 'decline' })) {
  const client = new Client({ name: 'desktop-2025', version: '1.0.0' }, { capabilities });
  const asked: string[] = [];
  if (capabilities.elicitation)
    client.setRequestHandler(ElicitRequestSchema, async (r) => {
      asked.push(`elicit:${r.params.message}`);
      return (await elicit(r.params)) as never;
    });
  if (capabilities.sampling)
    client.setRequestHandler(CreateMessageRequestSchema, async (r) => {
      const first = r.params.messages[0]?.content as { text?: string };
      asked.push(`sample:${first.text}`);
      return { role: 'assistant', content: { type: 'text', text: 'tea is good' }, model: 'm-2025' };
    });
  if (capabilities.roots)
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked.push('roots');
      return { roots: [{ uri: 'file:///work/a' }, { uri: 'file:///work/b' }] };
    });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport, asked };
}

const textOf = (r: unknown) => ((r as { content: { text: string }[] }).content[0] as { text: string }).text;
const call = (client: Client, name: string, options: { signal?: AbortSignal; onprogress?: (p: unknown) => void } = {}) =>
  client.request({ method: 'tools/call', params: { name, arguments: {} } }, CallToolResultSchema, options);

describe('a 2025-era client in front of a 2026-07-28 server (the reverse bridge)', () => {
  let server: Running & { url: string };
  let proxy: ProxyProcess;
  const readyz = async () =>
    (await (await fetch(proxy.url.replace(/\/mcp$/, '/readyz'))).json()) as {
      upstreams: Record<string, { legacyClients?: { sessions: number; requests: number; listening: number } }>;
    };
  const bridged = async () => Object.values((await readyz()).upstreams)[0]!.legacyClients!;

  before(async () => {
    const p = await startProcess(process.execPath, [SERVER], /modern listening on (http:\/\/\S+)/);
    server = { ...p, url: p.ready };
    // `era: auto`: the proxy finds the 2026-07-28 server by probing it.
    proxy = await startProxy([
      '--config',
      writeConfig(`default: migrated\nupstreams:\n  migrated:\n    era: auto\n    http: {url: ${JSON.stringify(server.url)}}\n`),
    ]);
  });
  after(async () => {
    await proxy?.stop();
    await server?.stop();
  });

  it('opens a session answered from server/discover, and lists and calls', async () => {
    const { client, transport } = await legacyClient(proxy.url, ALL);
    try {
      assert.ok(transport.sessionId, 'an Mcp-Session-Id');
      assert.deepEqual(client.getServerVersion(), { name: 'modern-asking', version: '3.0.0' });
      assert.equal(client.getInstructions(), 'Ask me things.');
      assert.deepEqual(Object.keys(client.getServerCapabilities() ?? {}).sort(), ['logging', 'prompts', 'resources', 'tools']);
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'greet'));
      assert.deepEqual(
        (await client.listPrompts()).prompts.map((p) => p.name),
        ['hello'],
      );
      await client.ping();
      assert.equal((await bridged()).sessions, 1);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
    await until(async () => (await bridged()).sessions === 0, 5000, 'the session closed after DELETE');
  });

  it('carries a form elicitation, two questions in one round and several rounds to the client', async () => {
    const { client, transport, asked } = await legacyClient(proxy.url, ALL, (p) => {
      if (p.message === 'What is your name?' || p.message === 'Name?' || p.message === 'Whose prompt?') return { action: 'accept', content: { name: 'Ada' } };
      if (p.message === 'Favourite color?') return { action: 'accept', content: { color: 'plum' } };
      const n = Number(/Number (\d)/.exec(p.message)?.[1]);
      return { action: 'accept', content: { n: n * 10 } };
    });
    try {
      assert.equal(textOf(await call(client, 'greet')), 'Hello, Ada!');
      assert.equal(textOf(await call(client, 'pair')), 'Ada likes plum');
      assert.equal(textOf(await call(client, 'sum3')), 'sum 60');
      const prompt = await client.getPrompt({ name: 'hello' });
      assert.equal((prompt.messages[0]!.content as { text: string }).text, 'hello prompt for Ada');
      assert.deepEqual(asked, [
        'elicit:What is your name?',
        'elicit:Name?',
        'elicit:Favourite color?',
        'elicit:Number 1?',
        'elicit:Number 2?',
        'elicit:Number 3?',
        'elicit:Whose prompt?',
      ]);
    } finally {
      await transport.terminateSession();
    }
  });

  it('carries sampling, roots and a URL elicitation', async () => {
    const { client, transport, asked } = await legacyClient(proxy.url, ALL, (p) => {
      assert.equal((p as { mode?: string }).mode, 'url');
      assert.equal((p as { url?: string }).url, 'https://example.com/sign-in');
      assert.equal(typeof (p as { elicitationId?: unknown }).elicitationId, 'string');
      return { action: 'accept' };
    });
    try {
      assert.equal(textOf(await call(client, 'summarize')), 'summary by m-2025: tea is good');
      assert.equal(textOf(await call(client, 'roots')), 'roots file:///work/a,file:///work/b');
      assert.equal(textOf(await call(client, 'link')), 'link accept');
      assert.deepEqual(asked, ['sample:Summarize: tea', 'roots', 'elicit:Sign in']);
    } finally {
      await transport.terminateSession();
    }
  });

  it('passes a decline and a cancel to the server, which computes its result from them', async () => {
    const actions = ['decline', 'cancel'];
    const { client, transport } = await legacyClient(proxy.url, ALL, () => ({ action: actions.shift() }));
    try {
      assert.equal(textOf(await call(client, 'greet')), 'no name: decline');
      assert.equal(textOf(await call(client, 'greet')), 'no name: cancel');
      assert.equal((await bridged()).requests, 0);
    } finally {
      await transport.terminateSession();
    }
  });

  it('never asks a client what it did not declare: it is asked nothing and gets -32021', async () => {
    const { client, transport, asked } = await legacyClient(proxy.url, { elicitation: {} }, () => ({ action: 'accept', content: { name: 'Bo' } }));
    try {
      await assert.rejects(call(client, 'summarize'), (err: McpError) => err.code === -32021);
      await assert.rejects(call(client, 'link'), (err: McpError) => err.code === -32021);
      assert.equal(textOf(await call(client, 'greet')), 'Hello, Bo!');
      assert.deepEqual(asked, ['elicit:What is your name?']);
    } finally {
      await transport.terminateSession();
    }
  });

  it('ends a server that never stops asking after ten rounds', async () => {
    const { client, transport, asked } = await legacyClient(proxy.url, ALL, () => ({ action: 'accept', content: { name: 'x' } }));
    try {
      await assert.rejects(
        call(client, 'forever'),
        (err: McpError) => /more than 10 rounds/.test(err.message) && (err.data as { reason?: string })?.reason === 'upstream_invalid',
      );
      assert.equal(asked.length, 10);
    } finally {
      await transport.terminateSession();
    }
  });

  it('relays the server’s logs and progress on the request, at the level the client set', async () => {
    const { client, transport } = await legacyClient(proxy.url, ALL);
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    try {
      await client.setLoggingLevel('warning');
      const progress: unknown[] = [];
      const r = await call(client, 'chatty', { onprogress: (p) => progress.push(p) });
      assert.equal(textOf(r), 'done at level warning');
      assert.deepEqual(logs, ['working on it']);
      assert.deepEqual(progress, [{ progress: 1, total: 2 }]);
    } finally {
      await transport.terminateSession();
    }
  });

  it('cancelling mid-round withdraws the question and leaves nothing behind', async () => {
    const abort = new AbortController();
    let withdrawn = false;
    const { client, transport } = await legacyClient(
      proxy.url,
      ALL,
      () =>
        new Promise(() => {
          // The person never answers; the client gives up.
          setTimeout(() => abort.abort('gave up'), 100);
        }),
    );
    client.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).CancelledNotificationSchema, () => {
      withdrawn = true;
    });
    try {
      await assert.rejects(call(client, 'greet', { signal: abort.signal }));
      await until(async () => (await bridged()).requests === 0, 5000, 'the flow ended');
      await until(async () => withdrawn, 5000, 'the question withdrawn from the client');
    } finally {
      await transport.terminateSession();
    }
    await until(async () => (await bridged()).sessions === 0, 5000, 'no session left');
  });

  it('cancelling a running call closes the upstream stream; a DELETE ends the others', async () => {
    const { client, transport } = await legacyClient(proxy.url, ALL);
    const abort = new AbortController();
    const cancelled = call(client, 'hang', { signal: abort.signal });
    await until(async () => server.stderr().includes('hang started'), 5000, 'the call reached the server');
    abort.abort('enough');
    await assert.rejects(cancelled);
    await until(async () => server.stderr().includes('hang aborted'), 5000, 'the server saw its stream close');
    await until(async () => (await bridged()).requests === 0, 5000, 'the flow ended');
    // Left running, then the session deleted: the server's stream closes with it.
    const before = server.stderr().split('hang aborted').length;
    void call(client, 'hang').catch(() => {});
    await until(async () => (await bridged()).requests === 1, 5000, 'the second call running');
    await transport.terminateSession();
    await until(async () => server.stderr().split('hang aborted').length > before, 5000, 'the server saw the DELETE');
    await until(async () => JSON.stringify(await bridged()) === '{"sessions":0,"requests":0,"listening":0}', 5000, 'nothing left');
    await client.close();
  });

  it('answers what is not bridged yet with an explicit -32601', async () => {
    const { client, transport } = await legacyClient(proxy.url, ALL);
    try {
      await assert.rejects(
        client.request({ method: 'tasks/list', params: {} }, EmptyResultSchema),
        (err: McpError) => err.code === -32601 && /not bridged/.test(err.message),
      );
    } finally {
      await transport.terminateSession();
    }
  });
});

describe('a 2025-era client in front of a 2026-07-28 stdio server', () => {
  let proxy: ProxyProcess;
  before(async () => {
    const config = `default: migrated\nupstreams:\n  migrated:\n    era: modern\n    stdio: {command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(SERVER)}, '--stdio']}\n`;
    proxy = await startProxy(['--config', writeConfig(config)]);
  });
  after(async () => await proxy?.stop());

  it('is refused with -32022 naming what is not bridged yet', async () => {
    const client = new Client({ name: 'desktop-2025', version: '1.0.0' });
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(proxy.url))), /-32022.*HTTP servers only/);
  });
});

describe('a 2025-era client whose 2026-07-28 server went away', () => {
  it('answers its initialize with an error and keeps no session', async () => {
    const p = await startProcess(process.execPath, [SERVER], /modern listening on (http:\/\/\S+)/);
    const config = `default: gone\nupstreams:\n  gone:\n    era: modern\n    http: {url: ${JSON.stringify(p.ready)}}\n`;
    const proxy = await startProxy(['--config', writeConfig(config)]);
    try {
      await p.stop();
      const client = new Client({ name: 'desktop-2025', version: '1.0.0' });
      await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(proxy.url))), /cannot reach the 2026-07-28 server gone/);
      const kept = async () =>
        ((await (await fetch(proxy.url.replace(/\/mcp$/, '/readyz'))).json()) as { upstreams: { gone: { legacyClients: unknown } } }).upstreams.gone
          .legacyClients;
      await until(async () => JSON.stringify(await kept()) === '{"sessions":0,"requests":0,"listening":0}', 5000, 'no session kept');
    } finally {
      await proxy.stop();
      await p.stop();
    }
  });
});

describe('a 2025-era client session on a 2026-07-28 server, with client authentication', () => {
  const ALICE: TestClient = { clientId: 'alice', clientSecret: 'alice-secret', scope: 'mcp:tools' };
  const BOB: TestClient = { clientId: 'bob', clientSecret: 'bob-secret', scope: 'mcp:tools' };
  let as: AuthServer;
  let server: Running;
  let proxy: ProxyProcess;
  before(async () => {
    as = await startAuthServer([ALICE, BOB]);
    server = await startProcess(process.execPath, [SERVER], /modern listening on (http:\/\/\S+)/);
    const config = `default: migrated\nupstreams:\n  migrated:\n    era: modern\n    http: {url: ${JSON.stringify(server.ready)}}\n`;
    proxy = await startProxy(['--config', writeConfig(config), '--auth-issuer', as.issuer, '--auth-scope', 'mcp:tools']);
  });
  after(async () => {
    await proxy?.stop();
    await server?.stop();
    await as?.close();
  });

  it("keeps one principal out of another's session", async () => {
    const token = async (c: TestClient) => `Bearer ${(await as.token(c, { resource: proxy.url })).access_token}`;
    const message = (id: number, method: string, params: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const alice = await token(ALICE);
    const init = message(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } });
    const opened = await fetch(proxy.url, { method: 'POST', headers: { ...headers, authorization: alice }, body: init });
    assert.equal(opened.status, 200);
    const sid = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const session = { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const list = message(2, 'tools/list', {});
    assert.equal((await post(proxy.url, list, { ...session, authorization: await token(BOB) })).status, 404, 'another principal finds no session');
    const own = await post(proxy.url, list, { ...session, authorization: alice });
    assert.equal(own.status, 200);
    assert.ok(((own.body.result as { tools: { name: string }[] }).tools ?? []).some((t) => t.name === 'greet'));
  });
});
