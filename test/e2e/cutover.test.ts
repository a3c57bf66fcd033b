// Per-item cutover: the legacy fixture (v1 SDK, stdio) with some of its items already served by
// its migrated 2026-07-28 server (official McpServer, test/fixtures/migrated-server.ts), which
// asks through input_required itself. The official 2026-07-28 client calls both kinds of item
// through the proxy; each answer says which server gave it ("from the migrated server", the
// result's serverInfo). A reload moves an item back and forth while interactions are open.
// 2025-era clients' side of the cutover: cutover-legacy-clients.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, textOf } from '../support/client.js';
import { rewriteConfig, writeConfig } from '../support/config.js';
import { scrape } from '../support/metrics.js';
import { FIXTURE, ROOT, startProcess, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { listen } from '../support/rpc.js';
import { until } from '../support/wait.js';

const MIGRATED = `${ROOT}dist/test/fixtures/migrated-server.js`;
const ELICIT = { elicitation: { form: {} } };
type Raw = {
  resultType?: string;
  inputRequests?: Record<string, { params: { message: string } }>;
  requestState?: string;
  _meta?: Record<string, { name?: string }>;
};

/** The configuration: the legacy fixture as `legacy` (the default) cutting `cutover` over to `next`, which it also shadows for echo. */
function config(migratedUrl: string, cutover: string): string {
  return [
    'default: legacy',
    'upstreams:',
    '  legacy:',
    `    stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] }`,
    `    cutover: ${cutover}`,
    '    shadow: { upstream: next, tools: [echo] }',
    '  next:',
    '    era: modern',
    `    http: ${JSON.stringify(migratedUrl)}`,
    '',
  ].join('\n');
}
const CUTOVER = '{ upstream: next, tools: [ask-name], prompts: [greet], resourceTemplates: ["fixture://note/{id}"] }';

const serverOf = (r: Raw) => r._meta?.['io.modelcontextprotocol/serverInfo']?.name;
/** A first call, its input_required kept (the client does not answer it). */
const begin = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args }, { allowInputRequired: true })) as Raw;
const answer = async (client: Client, name: string, asked: Raw, responses: Record<string, unknown>, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args, inputResponses: responses, requestState: asked.requestState } as never, { allowInputRequired: true })) as Raw;

describe('per-item cutover: a legacy upstream serves some items from its migrated server', () => {
  let migrated: Running & { url: string };
  let proxy: ProxyProcess;
  let path: string;
  let client: Client;
  /** The migrated server's own log of what reached it. */
  const reached = (what: string) =>
    migrated
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith(`migrated: ${what}`)).length;
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
    client = await connectClient(proxy.url, ELICIT);
  });
  after(async () => {
    await client?.close();
    await proxy?.stop();
    await migrated?.stop();
  });

  it('says what is cut over at start and in /readyz', async () => {
    assert.match(
      proxy.stderr(),
      /in front of legacy \(node legacy-server\.js over stdio; cut over to next: tools ask-name; prompts greet; resource templates fixture:\/\/note\/\{id\}\)/,
    );
    const ready = (await (await fetch(proxy.url.replace(/\/mcp$/, '/readyz'))).json()) as { upstreams: Record<string, { ready: boolean; cutover?: unknown }> };
    assert.equal(ready.upstreams['legacy']!.ready, true);
    assert.deepEqual(ready.upstreams['legacy']!.cutover, {
      upstream: 'next',
      tools: ['ask-name'],
      prompts: ['greet'],
      resources: [],
      resourceTemplates: ['fixture://note/{id}'],
      legacyClientRequests: 0,
    });
  });

  it('serves a cut-over tool that asks from the migrated server: its question and requestState reach the client untouched, and the retry goes back there', async () => {
    const before = reached('tools/call ask-name');
    const asked = await begin(client, 'ask-name');
    assert.equal(asked.resultType, 'input_required');
    assert.deepEqual(Object.keys(asked.inputRequests ?? {}), ['name'], "the migrated server's own input key, not the proxy's elicitation-N");
    assert.equal(asked.inputRequests!['name']!.params.message, 'What is your name? (migrated)');
    assert.match(asked.requestState ?? '', /^v1\./, "the migrated server's own codec, not sealed by the proxy");
    const done = await answer(client, 'ask-name', asked, { name: { action: 'accept', content: { name: 'Ada' } } });
    assert.equal(textOf(done), 'Hi from the migrated server, Ada!');
    assert.equal(serverOf(done), 'fixture-migrated');
    assert.equal(reached('tools/call ask-name') - before, 2, 'both rounds reached the migrated server');
    // The client's own MRTR loop, end to end.
    assert.equal(textOf(await client.callTool({ name: 'ask-name', arguments: { greeting: 'Hey' } })), 'Hey from the migrated server, Ada!');
  });

  it('serves a tool not cut over through the legacy path: the proxy seals its requestState and the legacy server answers', async () => {
    const asked = await begin(client, 'ask-if', { ask: true });
    assert.deepEqual(Object.keys(asked.inputRequests ?? {}), ['elicitation-1']);
    assert.equal(asked.inputRequests!['elicitation-1']!.params.message, 'Now?');
    const header = JSON.parse(Buffer.from((asked.requestState ?? '').split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
    assert.deepEqual([header['alg'], header['enc']], ['dir', 'A256GCM'], "the proxy's sealed state");
    const done = await answer(client, 'ask-if', asked, { 'elicitation-1': { action: 'accept', content: { v: 'yes' } } }, { ask: true });
    assert.equal(textOf(done), 'asked: yes');
    assert.equal(serverOf(done), 'fixture-legacy');
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })), 'echo: hi');
  });

  it('routes prompts and resource reads by what is cut over', async () => {
    const prompt = await client.getPrompt({ name: 'greet', arguments: {} });
    assert.equal((prompt.messages[0]!.content as { text: string }).text, 'Migrated greeting for world');
    const note = await client.readResource({ uri: 'fixture://note/7' });
    assert.equal((note.contents[0] as { text: string }).text, 'migrated note 7 for world');
    // Not cut over: the legacy server's, its question asked by the proxy.
    const secret = await client.readResource({ uri: 'fixture://secret' });
    assert.equal((secret.contents[0] as { text: string }).text, 'secret for h');
    const item = await client.readResource({ uri: 'fixture://items/3' });
    assert.equal((item.contents[0] as { text: string }).text, 'item 3');
  });

  it('lists one server: the legacy lists with each cut-over item described by the migrated server', async () => {
    const tools = (await client.listTools()).tools;
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.equal(byName.get('ask-name')?.description, 'Asks for your name (migrated)');
    assert.equal(byName.get('echo')?.description, undefined, "echo is not cut over: the legacy server's entry, though the migrated server has one");
    assert.ok(byName.has('gate') && byName.has('ask-if'), "the legacy server's other tools");
    assert.equal(tools.filter((t) => t.name === 'ask-name').length, 1);
    const prompts = (await client.listPrompts()).prompts;
    assert.deepEqual(
      prompts.map((p) => [p.name, p.description]),
      [['greet', 'A greeting (migrated)']],
    );
    const templates = (await client.listResourceTemplates()).resourceTemplates;
    assert.equal(templates.find((t) => t.uriTemplate === 'fixture://note/{id}')?.description, 'A note (migrated)');
    assert.equal(templates.find((t) => t.uriTemplate === 'fixture://items/{id}')?.name, 'item');
    // Resources are not cut over: the legacy server's list as it is.
    const resources = (await client.listResources()).resources;
    assert.equal(resources.find((r) => r.uri === 'fixture://static')?.description, undefined);
  });

  it('still shadows a tool that is not cut over', async () => {
    const metrics = proxy.url.replace(/\/mcp$/, '/metrics');
    const compared = async () =>
      (await scrape(metrics)).value('mrtr_shadow_comparisons_total', { upstream: 'legacy', method: 'tools/call', outcome: 'differ' });
    const before = await compared();
    await client.callTool({ name: 'echo', arguments: { text: 'shadowed' } });
    // echo: shadowed (legacy) against migrated echo: shadowed.
    await until(async () => (await compared()) > before, 10_000, 'the comparison');
  });

  it('rolls a tool back on reload: the next call goes to the legacy server, an interaction begun before finishes on the migrated one, and listeners hear once per reload', async () => {
    const stream = await listen(proxy.url, { toolsListChanged: true });
    try {
      await stream.next((m) => m['method'] === 'notifications/subscriptions/acknowledged');
      const open = await begin(client, 'ask-name');
      assert.match(open.requestState ?? '', /^v1\./);
      await reload('{ upstream: next, prompts: [greet], resourceTemplates: ["fixture://note/{id}"] }');
      await stream.next((m) => m['method'] === 'notifications/tools/list_changed');
      // The interaction begun on the migrated server finishes there.
      const finished = await answer(client, 'ask-name', open, { name: { action: 'accept', content: { name: 'Before' } } });
      assert.equal(textOf(finished), 'Hi from the migrated server, Before!');
      // A new call is the legacy server's, its question asked by the proxy.
      const fresh = await begin(client, 'ask-name');
      assert.deepEqual(Object.keys(fresh.inputRequests ?? {}), ['elicitation-1']);
      assert.equal(textOf(await client.callTool({ name: 'ask-name', arguments: {} })), 'Hello, Ada!');
      assert.equal((await client.listTools()).tools.find((t) => t.name === 'ask-name')?.description, undefined);

      // And forward again, with the legacy interaction still open: it finishes on the legacy server.
      await reload(CUTOVER);
      const resumed = await answer(client, 'ask-name', fresh, { 'elicitation-1': { action: 'accept', content: { name: 'Kept' } } });
      assert.equal(textOf(resumed), 'Hello, Kept!');
      assert.equal(textOf(await client.callTool({ name: 'ask-name', arguments: {} })), 'Hi from the migrated server, Ada!');
      const heard = (method: string) => stream.messages.filter((m) => m['method'] === method).length;
      await until(() => heard('notifications/tools/list_changed') >= 2, 10_000, 'the second list_changed');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(heard('notifications/tools/list_changed'), 2, 'one per reload');
    } finally {
      stream.close();
    }
  });

  it('refuses on reload to cut over an item the migrated server does not serve, and keeps the running cutover', async () => {
    const before = proxy.stderr().length;
    rewriteConfig(path, config(migrated.url, '{ upstream: next, tools: [ask-name, book], prompts: [greet], resourceTemplates: ["fixture://note/{id}"] }'));
    proxy.child.kill('SIGHUP');
    await until(() => /upstream change not applied/.test(proxy.stderr().slice(before)), 10_000, 'the refusal');
    assert.match(proxy.stderr().slice(before), /the migrated server 'next' does not list tool 'book'; serve it there first, or leave it out of cutover:/);
    assert.equal(textOf(await client.callTool({ name: 'ask-name', arguments: {} })), 'Hi from the migrated server, Ada!');
    rewriteConfig(path, config(migrated.url, CUTOVER));
  });
});

describe('per-item cutover: an item the migrated server lacks at start', () => {
  it('leaves the legacy upstream not started, says why, and /readyz answers 503 for it', async () => {
    const p = await startProcess(process.execPath, [MIGRATED], /migrated listening on (http:\/\/\S+)/);
    const proxy = await startProxy(['--config', writeConfig(config(p.ready, '{ upstream: next, tools: [ask-name, book] }'))]);
    try {
      const line = proxy
        .stderr()
        .split('\n')
        .find((l) => l.includes('the migrated server does not serve what is cut over to it'));
      assert.match(line ?? '', /"upstream":"legacy"/);
      assert.match(line ?? '', /the migrated server 'next' does not list tool 'book'; serve it there first, or leave it out of cutover:/);
      const res = await fetch(proxy.url.replace(/\/mcp$/, '/readyz'));
      assert.equal(res.status, 503);
      const body = (await res.json()) as { upstreams: Record<string, { ready: boolean; error?: string }> };
      assert.equal(body.upstreams['legacy']!.ready, false);
      assert.match(body.upstreams['legacy']!.error ?? '', /does not list tool 'book'/);
      assert.equal(body.upstreams['next']!.ready, true);
    } finally {
      await proxy.stop();
      await p.stop();
    }
  });
});
