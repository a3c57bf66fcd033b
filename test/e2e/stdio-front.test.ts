// The proxy launched by a 2026-07-28 client as its stdio server (--stdio), and by a legacy client
// on the same binary (the first message decides the era). Bridging over the pipe: test/contract.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import { DEFAULT_ANSWERS, textOf } from '../support/client.js';
import { rewriteConfig, writeConfig } from '../support/config.js';
import { until } from '../support/wait.js';
import { FIXTURE, PROXY_BIN, TEST_STATE_KEY } from '../support/processes.js';

const proxyArgs = (extra: string[] = []) => [PROXY_BIN, '--stdio', ...extra, '--', process.execPath, FIXTURE];
const env = { ...(process.env as Record<string, string>), MRTR_STATE_KEY: TEST_STATE_KEY };

describe('stdio front', () => {
  let client: Client;
  let stderr = '';
  before(async () => {
    client = new Client(
      { name: 'stdio-e2e', version: '1' },
      { capabilities: { elicitation: {}, sampling: {}, roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async (r) => DEFAULT_ANSWERS.elicit(r.params as never) as never);
    client.setRequestHandler('sampling/createMessage', async (r) => DEFAULT_ANSWERS.sample(r.params as never) as never);
    client.setRequestHandler('roots/list', async () => DEFAULT_ANSWERS.roots() as never);
    const transport = new StdioClientTransport({ command: process.execPath, args: proxyArgs(), env, stderr: 'pipe' });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
  });

  it('keeps stdout for MCP messages: logs go to stderr', async () => {
    // The client may be connected before the start-up line has been read from the pipe.
    await until(() => /serving 2026-07-28 on stdio/.test(stderr), 10_000, 'the start-up line on stderr');
    // Byte for byte, with debug logging on: every stdout line is a JSON-RPC message, every log line is on stderr.
    const proxy = spawn(process.execPath, proxyArgs(['--log-level', 'debug']), { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proxy.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proxy.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      };
      const call = (id: number, name: string) =>
        `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { text: 'out' }, _meta: meta } })}\n`;
      proxy.stdin.write(call(1, 'echo'));
      proxy.stdin.write(call(2, 'ask-name'));
      await until(() => out.split('\n').filter(Boolean).length >= 2, 10_000, 'two answers on stdout');
      const lines = out.split('\n').filter(Boolean);
      for (const line of lines) assert.equal((JSON.parse(line) as { jsonrpc?: string }).jsonrpc, '2.0', line);
      const answers = lines.map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown> });
      assert.deepEqual(answers.find((a) => a.id === 1)?.result?.['content'], [{ type: 'text', text: 'echo: out' }]);
      assert.equal(answers.find((a) => a.id === 2)?.result?.['resultType'], 'input_required');
      assert.match(err, /"level":"debug"/, 'the debug lines went to stderr');
      assert.doesNotMatch(out, /"level":/, 'no log line on stdout');
    } finally {
      proxy.stdin.end();
      await new Promise((r) => proxy.once('exit', r));
    }
  });

  it('applies the same requestState rules', async () => {
    const raw = (await client.callTool({ name: 'ask-name', arguments: {} }, { allowInputRequired: true } as never)) as unknown as {
      resultType: string;
      requestState: string;
    };
    assert.equal(raw.resultType, 'input_required');
    await assert.rejects(
      client.callTool(
        {
          name: 'ask-name',
          arguments: { greeting: 'x' },
          requestState: raw.requestState,
          inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Q' } } },
        } as never,
        { allowInputRequired: true } as never,
      ),
      /different request/,
    );
    const wrong = await client
      .callTool(
        {
          name: 'ask-name',
          arguments: { greeting: 'x' },
          requestState: raw.requestState,
          inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Q' } } },
        } as never,
        { allowInputRequired: true } as never,
      )
      .catch((err: unknown) => err);
    assert.deepEqual((wrong as { data?: unknown }).data, { reason: 'wrong_request', action: 'stop' }, 'the stdio front encodes as the HTTP one');
  });
});

describe('stdio front: probe, listen', () => {
  it('is found modern by a client that probes (versionNegotiation auto)', async () => {
    const client = new Client({ name: 'auto', version: '1' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: proxyArgs(), env, stderr: 'ignore' }));
    try {
      assert.equal(client.getProtocolEra(), 'modern');
      assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    } finally {
      await client.close();
    }
  });

  it('delivers change notifications to listen subscriptions on the same pipe', async () => {
    const child = spawn(process.execPath, proxyArgs(), { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const lines: Array<Record<string, unknown>> = [];
    child.stdout.on('data', (d: Buffer) => {
      for (const l of d.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
    });
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    const waitFor = async (pred: (m: Record<string, unknown>) => boolean) => {
      const end = Date.now() + 8000;
      while (!lines.some(pred)) {
        if (Date.now() > end) throw new Error(`not seen; got ${JSON.stringify(lines)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return lines.find(pred)!;
    };
    try {
      send({ id: 'L1', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta } });
      await waitFor((m) => m['method'] === 'notifications/subscriptions/acknowledged');
      send({ id: 2, method: 'tools/call', params: { name: 'add-tool', arguments: { name: 'late' }, _meta: meta } });
      await waitFor((m) => m['id'] === 2);
      const changed = await waitFor((m) => m['method'] === 'notifications/tools/list_changed');
      assert.equal((changed['params'] as { _meta: Record<string, unknown> })._meta['io.modelcontextprotocol/subscriptionId'], 'L1');
    } finally {
      child.kill();
    }
  });
});

describe('stdio front with a configuration file', () => {
  it('reloads on SIGHUP without losing a suspended interaction', async () => {
    const node = JSON.stringify(process.execPath);
    const one = `upstreams:\n  main: { stdio: { command: ${node}, args: [${JSON.stringify(FIXTURE)}] }, gatherWindowMs: 25 }\n`;
    const path = writeConfig(one);
    const client = new Client({ name: 'reload', version: '1' }, {
      capabilities: { elicitation: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    } as never);
    const transport = new StdioClientTransport({ command: process.execPath, args: [PROXY_BIN, '--stdio', '--config', path], env, stderr: 'pipe' });
    let err = '';
    transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    await client.connect(transport);
    try {
      const raw = (await client.callTool({ name: 'ask-name', arguments: {} }, { allowInputRequired: true } as never)) as unknown as { requestState: string };
      rewriteConfig(path, one.replace('gatherWindowMs: 25', 'gatherWindowMs: 30'));
      process.kill(transport.pid!, 'SIGHUP');
      await until(() => /configuration reloaded/.test(err), 10_000, 'reload');
      assert.match(err, /upstream reconfigured/);
      const resumed = await client.callTool(
        {
          name: 'ask-name',
          arguments: {},
          requestState: raw.requestState,
          inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Reloaded' } } },
        } as never,
        { allowInputRequired: true } as never,
      );
      assert.equal(textOf(resumed), 'Hello, Reloaded!');
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } })), 'echo: after');
    } finally {
      await client.close();
    }
  });
});

describe('stdio front, legacy client on the same binary', () => {
  it('relays a legacy client transparently, server-initiated requests included', async () => {
    const legacy = new LegacyClient({ name: 'old-client', version: '1' }, { capabilities: { elicitation: {} } });
    let asked = 0;
    legacy.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: 'accept', content: { name: 'Legacy' } };
    });
    await legacy.connect(new LegacyStdioTransport({ command: process.execPath, args: proxyArgs(), env, stderr: 'ignore' }));
    try {
      assert.equal(legacy.getServerVersion()?.name, 'fixture-legacy', 'initialize reached the legacy server');
      const r = await legacy.callTool({ name: 'ask-name', arguments: {} });
      assert.equal(textOf(r), 'Hello, Legacy!');
      assert.equal(asked, 1, 'the legacy server asked the legacy client directly');
    } finally {
      await legacy.close();
    }
  });

  it('refuses initialize with --legacy-clients reject, naming the supported version', async () => {
    const child = spawn(process.execPath, proxyArgs(['--legacy-clients', 'reject']), { env, stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } })}\n`,
      );
      const line = await Promise.race([
        new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString()))),
        new Promise<string>((_, reject) => setTimeout(() => reject(new Error('no answer to initialize')), 15_000)),
      ]);
      const reply = JSON.parse(line) as { error: { code: number; data: { supported: string[] } } };
      assert.equal(reply.error.code, -32022);
      assert.deepEqual(reply.error.data.supported, ['2026-07-28']);
    } finally {
      child.kill();
    }
  });

  it('exits when the client closes stdin, taking its legacy children along', async () => {
    const child = spawn(process.execPath, proxyArgs(), { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await until(() => /serving 2026-07-28 on stdio/.test(err), 15_000, 'the proxy to start');
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0);
    assert.match(err, /shutting down[^\n]*stdin closed/);
  });
});
