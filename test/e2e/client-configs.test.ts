// The desktop clients' configuration files (mcpServers, VS Code's servers) and the files of other
// MCP proxies, loaded as they are: each fixture under test/fixtures/client-configs starts the proxy
// binary, and every server it names answers a real call through it (stdio children, Streamable
// HTTP, HTTP+SSE). Also the upstreams the command line now reaches (WebSocket, SSE) and
// --pass-environment.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { connectClient, textOf } from '../support/client.js';
import { writeConfig } from '../support/config.js';
import { FIXTURE, PROXY_BIN, ROOT, startHttpFixture, startProcess, startProxy, TEST_STATE_KEY, type ProxyProcess, type Running } from '../support/processes.js';
import { rpc } from '../support/rpc.js';

const fixtureFile = (name: string) => `${ROOT}test/fixtures/client-configs/${name}`;
const at = (proxy: ProxyProcess, name: string) => proxy.url.replace(/\/mcp$/, `/servers/${name}/mcp`);

/** Each fixture file, the stdio server's marker, and its network servers by kind. */
const FILES: Array<{ file: string; marker: string; http?: string[]; sse?: string[]; single?: boolean }> = [
  { file: 'claude-desktop.json', marker: 'claude-desktop', single: true },
  { file: 'cursor.json', marker: 'from-cursor-env', http: ['remote'] },
  { file: 'vscode.json', marker: 'vscode', http: ['remote'], sse: ['events'] },
  { file: 'sparfenyuk-mcp-proxy.json', marker: 'sparfenyuk' },
  { file: 'tbxark-mcp-proxy.json', marker: 'tbxark', sse: ['events'] },
  { file: 'fastmcp-proxy.json', marker: 'fastmcp', http: ['remote'] },
  { file: 'punkpeye-mcp-proxy.json', marker: 'punkpeye', http: ['wrapped-stream'], sse: ['wrapped-sse'] },
];

describe('client configuration files, as they are', () => {
  let http: Running & { url: string };
  let sse: Running;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    [http, sse] = await Promise.all([startHttpFixture(), startProcess(process.execPath, [FIXTURE, '--sse', '0'], /fixture listening on (http:\/\/\S+)/)]);
    env = { CURSOR_MARKER: 'from-cursor-env', FIXTURE_HTTP_URL: http.url, FIXTURE_SSE_URL: sse.ready, FIXTURE_API_KEY: 'sekret-456' };
  });
  after(async () => {
    await Promise.all([http?.stop(), sse?.stop()]);
  });

  for (const f of FILES) {
    it(`${f.file}: every server answers through the proxy`, async () => {
      const proxy = await startProxy(['--config', fixtureFile(f.file)], env);
      try {
        const local = await connectClient(f.single ? proxy.url : at(proxy, 'fixture'));
        assert.equal(textOf(await local.callTool({ name: 'env', arguments: { name: 'MRTR_TEST_MARKER' } })), `MRTR_TEST_MARKER=${f.marker}`);
        assert.equal(textOf(await local.callTool({ name: 'ask-name', arguments: {} })), 'Hello, Ada!');
        await local.close();
        for (const name of f.http ?? []) {
          const r = await rpc(at(proxy, name), 'tools/call', { name: 'headers', arguments: {} });
          const seen = JSON.parse(textOf(r.body.result)) as Record<string, string>;
          if (f.file !== 'punkpeye-mcp-proxy.json') assert.equal(seen['x-api-key'], 'sekret-456', name);
        }
        for (const name of [...(f.http ?? []), ...(f.sse ?? [])]) {
          const client = await connectClient(at(proxy, name));
          assert.equal(textOf(await client.callTool({ name: 'ask-name', arguments: {} })), 'Hello, Ada!', name);
          await client.close();
        }
        assert.doesNotMatch(proxy.stderr(), /sekret-456/);
      } finally {
        await proxy.stop();
      }
    });
  }

  it('a disabled server is left out', async () => {
    const proxy = await startProxy(['--config', fixtureFile('sparfenyuk-mcp-proxy.json')], env);
    try {
      const r = await fetch(at(proxy, 'github'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(r.status, 404);
    } finally {
      await proxy.stop();
    }
  });

  it('refuses a key it cannot map with exit code 2, naming it and what to write instead', () => {
    const path = writeConfig(
      JSON.stringify({ mcpServers: { a: { command: 'node', autoApprove: ['x'], envFile: '.env' }, b: { url: 'http://127.0.0.1:1/mcp', type: 'htp' } } }),
    );
    const r = spawnSync(process.execPath, [PROXY_BIN, '--config', path], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /mcpServers\.a\.autoApprove: the proxy approves nothing itself/);
    assert.match(r.stderr, /mcpServers\.a\.envFile: name each variable in env:/);
    assert.match(r.stderr, /mcpServers\.b\.type: expected stdio, http \(or streamable-http\), sse or websocket, got "htp"/);
  });
});

describe('upstreams from the command line', () => {
  let ws: Running;
  let sse: Running;
  before(async () => {
    [ws, sse] = await Promise.all([
      startProcess(process.execPath, [FIXTURE, '--ws', '0'], /fixture listening on (ws:\/\/\S+)/),
      startProcess(process.execPath, [FIXTURE, '--sse', '0'], /fixture listening on (http:\/\/\S+)/),
    ]);
  });
  after(async () => {
    await Promise.all([ws?.stop(), sse?.stop()]);
  });

  for (const [what, args] of [
    ['--upstream ws://', () => ['--upstream', ws.ready]],
    ['--upstream URL --upstream-transport sse', () => ['--upstream', sse.ready, '--upstream-transport', 'sse']],
  ] as const) {
    it(`${what} bridges a call`, async () => {
      const proxy = await startProxy([...args()]);
      try {
        const client = await connectClient(proxy.url);
        assert.equal(textOf(await client.callTool({ name: 'ask-name', arguments: {} })), 'Hello, Ada!');
        await client.close();
      } finally {
        await proxy.stop();
      }
    });
  }

  it('--pass-environment gives the child the whole environment but the proxy secrets', async () => {
    const proxy = await startProxy(['--pass-environment', '--', process.execPath, FIXTURE], {
      MRTR_TEST_MARKER: 'passed',
      MRTR_AUTH_CLIENT_SECRET: 'introspection-secret',
    });
    try {
      const client = await connectClient(proxy.url);
      const read = async (name: string) => textOf(await client.callTool({ name: 'env', arguments: { name } }));
      assert.equal(await read('MRTR_TEST_MARKER'), 'MRTR_TEST_MARKER=passed');
      assert.equal(await read('MRTR_STATE_KEY'), 'MRTR_STATE_KEY=<unset>');
      assert.equal(await read('MRTR_AUTH_CLIENT_SECRET'), 'MRTR_AUTH_CLIENT_SECRET=<unset>');
      await client.close();
      assert.doesNotMatch(proxy.stderr(), new RegExp(TEST_STATE_KEY));
    } finally {
      await proxy.stop();
    }
  });
});
