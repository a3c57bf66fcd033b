// Per-item cutover for 2025-era clients: the v1 SDK Client (initialize, Mcp-Session-Id) on a legacy
// upstream (the legacy fixture, v1 SDK, stdio) some of whose items its migrated 2026-07-28 server
// (test/fixtures/migrated-server.ts) already serves. The cut-over items' questions reach the client
// as legacy elicitation and sampling requests on its session; everything else is the legacy
// server's, on the same session. Each answer says which server gave it ("migrated server").
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CancelledNotificationSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
  type ElicitRequest,
  type McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { textOf } from '../support/client.js';
import { rewriteConfig, writeConfig } from '../support/config.js';
import { FIXTURE, ROOT, startProcess, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { until } from '../support/wait.js';

const MIGRATED = `${ROOT}dist/test/fixtures/migrated-server.js`;
const CUTOVER = '{ upstream: next, tools: [ask-name, summarize], prompts: [greet], resourceTemplates: ["fixture://note/{id}"] }';

function config(migratedUrl: string, cutover: string): string {
  return [
    'default: legacy',
    'upstreams:',
    '  legacy:',
    `    stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] }`,
    `    cutover: ${cutover}`,
    '  next:',
    '    era: modern',
    `    http: ${JSON.stringify(migratedUrl)}`,
    '',
  ].join('\n');
}

type Elicit = (p: ElicitRequest['params']) => Promise<Record<string, unknown>> | Record<string, unknown>;

/** A 2025-era desktop client; `asked` records each question it was asked. */
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
      asked.push(`sample:${(r.params.messages[0]!.content as { text?: string }).text}`);
      return { role: 'assistant', content: { type: 'text', text: 'tea is good' }, model: 'm-2025' };
    });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport, asked };
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}, options: { signal?: AbortSignal } = {}) =>
  client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema, options);

describe('per-item cutover for 2025-era clients: cut-over items from the migrated server, on their own session', () => {
  let migrated: Running & { url: string };
  let proxy: ProxyProcess;
  let path: string;
  const reached = (what: string) =>
    migrated
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith(`migrated: ${what}`)).length;
  const onMigrated = async () =>
    (
      (await (await fetch(proxy.url.replace(/\/mcp$/, '/readyz'))).json()) as {
        upstreams: Record<string, { cutover?: { legacyClientRequests: number } }>;
      }
    ).upstreams['legacy']!.cutover!.legacyClientRequests;
  const changes = () => (proxy.stderr().match(/cutover changed/g) ?? []).length;
  async function reload(cutover: string): Promise<void> {
    const before = changes();
    rewriteConfig(path, config(migrated.url, cutover));
    proxy.child.kill('SIGHUP');
    await until(() => changes() > before, 10_000, 'the cutover reloaded');
  }

  before(async () => {
    const p = await startProcess(process.execPath, [MIGRATED], /migrated listening on (http:\/\/\S+)/);
    migrated = { ...p, url: p.ready };
    path = writeConfig(config(migrated.url, CUTOVER));
    proxy = await startProxy(['--config', path]);
  });
  after(async () => {
    await proxy?.stop();
    await migrated?.stop();
  });

  it("asks a cut-over tool's, prompt's and template's questions of the client and answers from the migrated server; the rest stays the legacy server's", async () => {
    const { client, transport, asked } = await legacyClient(proxy.url, { elicitation: {} }, (p) =>
      p.message === 'Now?' ? { action: 'accept', content: { v: 'yes' } } : { action: 'accept', content: { name: 'Old', who: 'Ida' } },
    );
    try {
      const before = reached('tools/call ask-name');
      assert.equal(textOf(await call(client, 'ask-name')), 'Hi from the migrated server, Old!');
      assert.equal(reached('tools/call ask-name') - before, 2, 'the first request and its retry with the answer');
      const prompt = await client.getPrompt({ name: 'greet', arguments: {} });
      assert.equal((prompt.messages[0]!.content as { text: string }).text, 'Migrated greeting for Ida');
      const note = await client.readResource({ uri: 'fixture://note/7' });
      assert.equal((note.contents[0] as { text: string }).text, 'migrated note 7 for Ida');
      // Not cut over: the legacy server's, on the same session, its question passed through.
      assert.equal(textOf(await call(client, 'ask-if', { ask: true })), 'asked: yes');
      assert.equal(textOf(await call(client, 'echo', { text: 'hi' })), 'echo: hi');
      const item = await client.readResource({ uri: 'fixture://items/3' });
      assert.equal((item.contents[0] as { text: string }).text, 'item 3');
      assert.deepEqual(client.getServerVersion()?.name, 'fixture-legacy', 'the session is the legacy server’s');
      assert.deepEqual(asked, [
        'elicit:What is your name? (migrated)',
        'elicit:Whom to greet? (migrated)',
        'elicit:Whose copy of the note? (migrated)',
        'elicit:Now?',
      ]);
    } finally {
      await transport.terminateSession();
    }
  });

  it("carries a cut-over tool's sampling question to the client", async () => {
    const { client, transport, asked } = await legacyClient(proxy.url, { sampling: {} });
    try {
      assert.equal(textOf(await call(client, 'summarize', { text: 'tea' })), 'summary from the migrated server by m-2025: tea is good');
      assert.deepEqual(asked, ['sample:Summarize: tea']);
    } finally {
      await transport.terminateSession();
    }
  });

  it('passes a declined elicitation to the migrated server, which decides what follows', async () => {
    const { client, transport } = await legacyClient(proxy.url, { elicitation: {} }, () => ({ action: 'decline' }));
    try {
      assert.equal(textOf(await call(client, 'ask-name')), 'no name for the migrated server (decline)');
    } finally {
      await transport.terminateSession();
    }
  });

  it('refuses what the client did not declare with -32021, asking it nothing', async () => {
    const { client, transport, asked } = await legacyClient(proxy.url, { elicitation: {} }, () => ({ action: 'accept', content: { name: 'Bo' } }));
    try {
      await assert.rejects(call(client, 'summarize', { text: 'tea' }), (err: McpError) => err.code === -32021);
      assert.equal(textOf(await call(client, 'ask-name')), 'Hi from the migrated server, Bo!');
      assert.deepEqual(asked, ['elicit:What is your name? (migrated)']);
    } finally {
      await transport.terminateSession();
    }
  });

  it('lists one server: the legacy lists with the cut-over items as the migrated server describes them', async () => {
    const { client, transport } = await legacyClient(proxy.url, { elicitation: {} });
    try {
      const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
      assert.equal(tools.get('ask-name')?.description, 'Asks for your name (migrated)');
      assert.equal(tools.get('summarize')?.description, 'Summarizes (migrated)');
      assert.equal(tools.get('echo')?.description, undefined, "echo is not cut over: the legacy server's entry");
      assert.ok(tools.has('gate') && tools.has('ask-if'), "the legacy server's other tools");
      const prompts = (await client.listPrompts()).prompts;
      assert.equal(prompts.find((p) => p.name === 'greet')?.description, 'A greeting (migrated)');
      const templates = (await client.listResourceTemplates()).resourceTemplates;
      assert.equal(templates.find((t) => t.uriTemplate === 'fixture://note/{id}')?.description, 'A note (migrated)');
      assert.equal(templates.find((t) => t.uriTemplate === 'fixture://items/{id}')?.name, 'item');
    } finally {
      await transport.terminateSession();
    }
  });

  it('withdraws the question when the client cancels a cut-over call, leaving nothing waiting; the session keeps serving', async () => {
    const abort = new AbortController();
    const { client, transport } = await legacyClient(
      proxy.url,
      { elicitation: {} },
      // The person never answers; the client gives up.
      () => new Promise(() => setTimeout(() => abort.abort('gave up'), 100)),
    );
    let withdrawn = false;
    client.setNotificationHandler(CancelledNotificationSchema, () => {
      withdrawn = true;
    });
    try {
      await assert.rejects(call(client, 'ask-name', {}, { signal: abort.signal }));
      await until(async () => withdrawn, 5000, 'the question withdrawn from the client');
      await until(async () => (await onMigrated()) === 0, 5000, 'no request left on the migrated server');
      assert.equal(textOf(await call(client, 'echo', { text: 'still here' })), 'echo: still here');
    } finally {
      await transport.terminateSession();
    }
  });

  it('follows a reload on a session left open: the next call goes where the new cutover says, and so does its list', async () => {
    const { client, transport } = await legacyClient(proxy.url, { elicitation: {} }, () => ({ action: 'accept', content: { name: 'Kay' } }));
    const heard: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void heard.push('tools'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, async () => void heard.push('prompts'));
    try {
      assert.equal(textOf(await call(client, 'ask-name')), 'Hi from the migrated server, Kay!');
      await reload('{ upstream: next, prompts: [greet] }');
      // The tools cut over changed, the prompts did not: the session hears of the tools only.
      await until(() => heard.includes('tools'), 5000, 'tools/list_changed heard after the reload');
      assert.deepEqual(heard, ['tools']);
      assert.equal(textOf(await call(client, 'ask-name')), 'Hello, Kay!', "the legacy server's, asked through the session");
      assert.equal((await client.listTools()).tools.find((t) => t.name === 'ask-name')?.description, undefined);
      await reload(CUTOVER);
      await until(() => heard.length === 2, 5000, 'tools/list_changed heard after the second reload');
      assert.deepEqual(heard, ['tools', 'tools']);
      assert.equal(textOf(await call(client, 'ask-name')), 'Hi from the migrated server, Kay!');
      assert.equal((await client.listTools()).tools.find((t) => t.name === 'ask-name')?.description, 'Asks for your name (migrated)');
    } finally {
      await transport.terminateSession();
    }
  });
});
