// The reverse bridge's subscriptions/listen: a 2025-era client (v1 SDK Client over Streamable HTTP)
// in front of a 2026-07-28 server (official v2 SDK) whose tool list and resources change at runtime.
// The server's changes reach the client as legacy list_changed and resources/updated notifications,
// a resources/unsubscribe stops the updates, a stream the server drops is reopened, and the server
// sees its listen stream close when the session ends (DELETE, idle close).
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ROOT, startProcess, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { until } from '../support/wait.js';
import { writeConfig } from '../support/config.js';

const SERVER = `${ROOT}dist/test/fixtures/modern-asking-server.js`;

async function legacyClient(url: string) {
  const client = new Client({ name: 'desktop-2025', version: '1.0.0' }, { capabilities: {} });
  const heard: string[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void heard.push('tools/list_changed'));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => void heard.push(`updated ${n.params.uri}`));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport, heard };
}

const callTool = (client: Client, name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

describe('a 2025-era client hears the changes of a 2026-07-28 server (the reverse bridge listening)', () => {
  let server: Running & { url: string };
  let proxy: ProxyProcess;
  /** The server's listen streams: opened and closed so far. */
  const streams = () => ({
    opened: server.stderr().split('modern: listen opened').length - 1,
    closed: server.stderr().split('modern: listen closed').length - 1,
  });
  /** Listen streams open on the server now, beyond those left by an earlier test. */
  let left = 0;
  const openStreams = () => streams().opened - streams().closed - left;
  const bridged = async () =>
    Object.values(
      ((await (await fetch(proxy.url.replace(/\/mcp$/, '/readyz'))).json()) as { upstreams: Record<string, { legacyClients: { listening: number } }> })
        .upstreams,
    )[0]!.legacyClients;

  before(async () => {
    const p = await startProcess(process.execPath, [SERVER], /modern listening on (http:\/\/\S+)/);
    server = { ...p, url: p.ready };
    proxy = await startProxy([
      '--config',
      writeConfig(`default: migrated\nupstreams:\n  migrated:\n    era: modern\n    http: {url: ${JSON.stringify(server.url)}}\n`),
    ]);
  });
  beforeEach(() => {
    left = 0;
    left = openStreams();
  });
  after(async () => {
    await proxy?.stop();
    await server?.stop();
  });

  it('advertises listChanged and subscribe as the server does, and carries tools/list_changed to the client', async () => {
    const { client, transport, heard } = await legacyClient(proxy.url);
    try {
      const caps = client.getServerCapabilities();
      assert.deepEqual(caps?.tools, { listChanged: true });
      assert.deepEqual(caps?.resources, { subscribe: true });
      await until(() => openStreams() === 1, 5000, 'the session listening on the server');
      assert.equal((await bridged()).listening, 1, '/readyz counts the stream');
      // The client's GET stream opens on its own after connect: change the list until it hears of it.
      let added = '';
      await until(
        async () => {
          if (heard.includes('tools/list_changed')) return true;
          added = (((await callTool(client, 'add_tool')).content as { text: string }[])[0]!.text ?? '').replace('added ', '');
          return heard.includes('tools/list_changed');
        },
        5000,
        'tools/list_changed heard',
      );
      assert.ok(
        (await client.listTools()).tools.some((t) => t.name === added),
        `${added} listed`,
      );
    } finally {
      await transport.terminateSession();
      await client.close();
    }
    await until(() => openStreams() === 0, 5000, 'the listen stream closed after DELETE');
    await until(async () => (await bridged()).listening === 0, 5000, '/readyz counts none');
  });

  it('carries resources/updated for a subscribed URI only, and none after unsubscribe', async () => {
    const { client, transport, heard } = await legacyClient(proxy.url);
    try {
      await until(() => openStreams() === 1, 5000, 'the session listening on the server');
      const opened = streams().opened - 1;
      await client.subscribeResource({ uri: 'demo://note' });
      // A listen request's filter is fixed: the subscription opened a new stream, which replaced the first.
      await until(() => openStreams() === 1 && streams().opened - opened >= 2, 5000, 'the first stream replaced');
      await until(
        async () => {
          await callTool(client, 'touch', { uri: 'demo://other' });
          await callTool(client, 'touch', { uri: 'demo://note' });
          return heard.includes('updated demo://note');
        },
        5000,
        'resources/updated heard',
      );
      assert.ok(!heard.includes('updated demo://other'), 'an update of a URI not subscribed to');

      await client.unsubscribeResource({ uri: 'demo://note' });
      const before = heard.filter((h) => h === 'updated demo://note').length;
      await callTool(client, 'touch', { uri: 'demo://note' });
      // A change after the touch, on the same stream: once it is heard, an update would have been too.
      const lists = heard.filter((h) => h === 'tools/list_changed').length;
      await callTool(client, 'add_tool');
      await until(() => heard.filter((h) => h === 'tools/list_changed').length > lists, 5000, 'the later list change heard');
      assert.equal(heard.filter((h) => h === 'updated demo://note').length, before, 'no update after unsubscribe');
    } finally {
      await transport.terminateSession();
      await client.close();
    }
    await until(() => openStreams() === 0, 5000, 'the listen streams closed after DELETE');
  });

  it('reopens a listen stream the server drops, while the session lives', async () => {
    const { client, transport, heard } = await legacyClient(proxy.url);
    try {
      await until(() => openStreams() === 1, 5000, 'the session listening on the server');
      const opened = streams().opened;
      assert.equal(((await callTool(client, 'drop_listens')).content as { text: string }[])[0]!.text, 'dropped 1');
      await until(() => streams().opened > opened && openStreams() === 1, 5000, 'the stream reopened');
      await until(
        async () => {
          await callTool(client, 'add_tool');
          return heard.includes('tools/list_changed');
        },
        5000,
        'tools/list_changed heard on the reopened stream',
      );
    } finally {
      await transport.terminateSession();
      await client.close();
    }
    await until(() => openStreams() === 0, 5000, 'the listen stream closed after DELETE');
  });

  it('closes the listen stream of a session the proxy closes as idle', { timeout: 30_000 }, async () => {
    const idle = await startProxy([
      '--idle-session-ttl',
      '1',
      '--config',
      writeConfig(`default: migrated\nupstreams:\n  migrated:\n    era: modern\n    http: {url: ${JSON.stringify(server.url)}}\n`),
    ]);
    try {
      const { client } = await legacyClient(idle.url);
      await until(() => openStreams() === 1, 5000, 'the session listening on the server');
      // The client goes away without DELETE: its GET stream closes and the session idles out.
      await client.close();
      await until(() => openStreams() === 0, 10_000, 'the listen stream closed with the idle session');
    } finally {
      await idle.stop();
    }
  });
});
