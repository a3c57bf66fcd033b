// One proxy, many upstreams from a configuration file: every transport, header secrets from the
// environment, modern relay and era probing, health endpoints, SIGHUP reload, and bad files.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { connectClient, expectCallsKeptApart, textOf } from '../support/client.js';
import { writeConfig, rewriteConfig } from '../support/config.js';
import { freePort } from '../support/ports.js';
import { EVERYTHING, FIXTURE, PROXY_BIN, startHttpFixture, startProcess, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';

const node = JSON.stringify(process.execPath);
const fixture = JSON.stringify(FIXTURE);
const at = (proxy: ProxyProcess, name: string) => proxy.url.replace(/\/mcp$/, `/servers/${name}/mcp`);
const base = (proxy: ProxyProcess) => proxy.url.replace(/\/mcp$/, '');

describe('configuration file: bad files', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not YAML', 'upstreams: [', /not valid YAML/],
    ['no upstreams', 'listen: { port: 1 }', /upstreams: /],
    ['an unknown key', `upstreamz: {}\nupstreams: { a: { stdio: { command: node } } }`, /Unrecognized key/],
    [
      'two transports',
      `upstreams: { a: { stdio: { command: node }, http: { url: "http://127.0.0.1:1/mcp" } } }`,
      /upstreams\.a: needs exactly one transport \(stdio, http, sse or websocket\), got stdio and http/,
    ],
    ['no transport', `upstreams: { a: { era: legacy } }`, /upstreams\.a: needs exactly one transport/],
    ['a bad URL', `upstreams: { a: { http: { url: "ftp://x" } } }`, /upstreams\.a\.http\.url: must be an http:\/\/ or https:\/\/ URL/],
    ['a bad name', `upstreams: { "a b": { stdio: { command: node } } }`, /upstream names are letters, digits/],
    [
      'an unset header variable',
      `upstreams: { a: { http: { url: "http://127.0.0.1:1/mcp" }, headers: { Authorization: { env: NOPE_TOKEN, prefix: "Bearer " } } } }`,
      /upstreams\.a\.headers\.Authorization: environment variable NOPE_TOKEN is not set/,
    ],
    ['a default that is not an upstream', `default: x\nupstreams: { a: { stdio: { command: node } } }`, /default: 'x' is not one of the upstreams/],
    [
      'a modern websocket upstream',
      `upstreams: { a: { era: modern, websocket: { url: "ws://127.0.0.1:1/mcp" } } }`,
      /upstreams\.a\.era: sse and websocket exist only in legacy revisions/,
    ],
    ['a limit out of range', `upstreams: { a: { stdio: { command: node }, maxSessions: 0 } }`, /upstreams\.a\.maxSessions: /],
    ['a wrong era', `upstreams: { a: { era: future, stdio: { command: node } } }`, /upstreams\.a\.era: /],
  ];
  for (const [what, yaml, message] of cases) {
    it(`rejects ${what} with its own message and exit code 2`, () => {
      const r = spawnSync(process.execPath, [PROXY_BIN, '--config', writeConfig(yaml)], { encoding: 'utf8', timeout: 10_000 });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
    });
  }
  it('rejects a missing file', () => {
    const r = spawnSync(process.execPath, [PROXY_BIN, '--config', '/nonexistent/proxy.yaml'], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /\/nonexistent\/proxy\.yaml: cannot read: ENOENT/);
  });
});

describe('configuration file: every transport behind one proxy', () => {
  let http: Running & { url: string };
  let ws: Running;
  let sse: Running;
  let proxy: ProxyProcess;
  before(async () => {
    // server-everything takes its port from PORT only: a free one, never a guess in the ephemeral range.
    const ssePort = String(await freePort());
    [http, ws, sse] = await Promise.all([
      startHttpFixture(),
      startProcess(process.execPath, [FIXTURE, '--ws', '0'], /fixture listening on (ws:\/\/\S+)/),
      startProcess(process.execPath, [EVERYTHING, 'sse'], /running on port (\d+)/, { env: { PORT: ssePort } }),
    ]);
    const config = writeConfig(`
default: local
upstreams:
  local:
    stdio: { command: ${node}, args: [${fixture}], env: { MRTR_TEST_MARKER: from-config } }
  remote:
    http: { url: "${http.url}" }
    headers:
      X-Api-Key: { env: FIXTURE_API_KEY }
      X-Static: plain
  socket:
    websocket: { url: "${ws.ready}" }
    headers: { Authorization: { env: FIXTURE_API_KEY, prefix: "Bearer " } }
  everything:
    sse: { url: "http://127.0.0.1:${sse.ready}/sse" }
`);
    proxy = await startProxy(['--config', config], { FIXTURE_API_KEY: 'sekret-123' });
  });
  after(async () => {
    await proxy?.stop();
    await Promise.all([http?.stop(), ws?.stop(), sse?.stop()]);
  });

  it('serves the default upstream at /mcp and each at /servers/NAME/mcp', async () => {
    const c = await connectClient(proxy.url);
    assert.equal(textOf(await c.callTool({ name: 'env', arguments: { name: 'MRTR_TEST_MARKER' } })), 'MRTR_TEST_MARKER=from-config');
    await c.close();
    for (const name of ['local', 'remote', 'socket']) {
      const client = await connectClient(at(proxy, name));
      assert.equal(textOf(await client.callTool({ name: 'ask-name', arguments: {} })), 'Hello, Ada!', name);
      await client.close();
    }
  });

  it('bridges the everything server over the 2024-11-05 HTTP+SSE transport', async () => {
    const client = await connectClient(at(proxy, 'everything'));
    const r = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    assert.match(textOf(r), /User provided the requested information/);
    await client.close();
  });

  it("sends configured headers upstream, never the client's, and never logs the secret", async () => {
    const r = await rpc(at(proxy, 'remote'), 'tools/call', { name: 'headers', arguments: {} }, { headers: { authorization: 'Bearer client-token' } });
    const seen = JSON.parse(textOf(r.body.result)) as Record<string, string>;
    assert.equal(seen['x-api-key'], 'sekret-123');
    assert.equal(seen['x-static'], 'plain');
    assert.equal(seen['authorization'], undefined);
    const w = await rpc(at(proxy, 'socket'), 'tools/call', { name: 'headers', arguments: {} });
    assert.equal((JSON.parse(textOf(w.body.result)) as Record<string, string>)['authorization'], 'Bearer sekret-123');
    assert.doesNotMatch(proxy.stderr(), /sekret-123/);
  });

  it('reports health and per-upstream readiness', async () => {
    assert.deepEqual(await (await fetch(`${base(proxy)}/healthz`)).json(), { status: 'ok' });
    const ready = await fetch(`${base(proxy)}/readyz`);
    const body = (await ready.json()) as { status: string; upstreams: Record<string, { ready: boolean; transport: string; default: boolean }> };
    assert.equal(ready.status, 200, JSON.stringify(body));
    assert.deepEqual(Object.keys(body.upstreams).sort(), ['everything', 'local', 'remote', 'socket']);
    assert.equal(body.upstreams['socket']!.transport, 'websocket');
    assert.equal(body.upstreams['local']!.default, true);
  });

  it('answers an unknown upstream with 404', async () => {
    const r = await rpc(at(proxy, 'nope'), 'tools/list');
    assert.equal(r.status, 404);
    assert.match(r.body.error!.message, /no upstream 'nope' is configured/);
  });

  it('turns readiness off for an upstream that went away', async () => {
    await http.stop('SIGKILL');
    const ready = await fetch(`${base(proxy)}/readyz`);
    const body = (await ready.json()) as { upstreams: Record<string, { ready: boolean; error?: string }> };
    assert.equal(ready.status, 503);
    assert.equal(body.upstreams['remote']!.ready, false);
    assert.equal(body.upstreams['local']!.ready, true);
  });
});

describe('configuration file: modern upstreams and era probing', () => {
  let legacyProxy: ProxyProcess;
  let http: Running & { url: string };
  let proxy: ProxyProcess;
  before(async () => {
    [legacyProxy, http] = await Promise.all([startProxy(['--', process.execPath, FIXTURE]), startHttpFixture()]);
    const config = writeConfig(`
upstreams:
  relayed: { era: modern, http: { url: "${legacyProxy.url}" } }
  probed-modern: { era: auto, http: { url: "${legacyProxy.url}" } }
  probed-legacy: { era: auto, http: { url: "${http.url}" } }
  stdio-modern: { era: modern, stdio: { command: ${node}, args: [${JSON.stringify(PROXY_BIN)}, --stdio, --, ${node}, ${fixture}] } }
  stdio-probed: { era: auto, stdio: { command: ${node}, args: [${JSON.stringify(PROXY_BIN)}, --stdio, --, ${node}, ${fixture}] } }
`);
    // At debug: the probe's outcome is a start-up detail.
    proxy = await startProxy(['--log-level', 'debug', '--config', config]);
  });
  after(async () => {
    await proxy?.stop();
    await Promise.all([legacyProxy?.stop(), http?.stop()]);
  });

  it('relays a 2026-07-28 upstream untouched, input_required rounds included', async () => {
    const first = inputRequired(await rpc(at(proxy, 'relayed'), 'tools/call', { name: 'ask-name', arguments: {} }, { caps: { elicitation: {} } }));
    const direct = inputRequired(await rpc(legacyProxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: { elicitation: {} } }));
    assert.deepEqual(first.inputRequests, direct.inputRequests);
    const done = await rpc(
      at(proxy, 'relayed'),
      'tools/call',
      {
        name: 'ask-name',
        arguments: {},
        requestState: first.requestState,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Via' } } },
      },
      { caps: { elicitation: {} } },
    );
    assert.equal(textOf(done.body.result), 'Hello, Via!');
    const mismatch = await rpc(at(proxy, 'relayed'), 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'mcp-name': 'other' } });
    assert.equal(mismatch.status, 400, "the modern server's own header check answers");
  });

  it('probes era: auto as the spec says', async () => {
    assert.match(proxy.stderr(), /"era":"modern"[^\n]*upstream era probed[^\n]*"upstream":"probed-modern"|upstream era probed[^\n]*probed-modern/);
    const readyz = (await (await fetch(`${base(proxy)}/readyz`)).json()) as { upstreams: Record<string, { era: string }> };
    assert.equal(readyz.upstreams['probed-modern']!.era, 'modern');
    assert.equal(readyz.upstreams['probed-legacy']!.era, 'legacy');
    const client = await connectClient(at(proxy, 'probed-legacy'));
    assert.equal(textOf(await client.callTool({ name: 'ask-name', arguments: {} })), 'Hello, Ada!');
    await client.close();
    assert.equal(readyz.upstreams['stdio-probed']!.era, 'modern', 'a 2026-07-28 stdio server answers the discover probe');
  });

  it('relays a 2026-07-28 stdio server: rounds, progress, concurrent clients, cancellation', async () => {
    const url = at(proxy, 'stdio-modern');
    const client = await connectClient(url);
    assert.equal(textOf(await client.callTool({ name: 'ask-twice', arguments: {} })), 'first=one second=two');
    await client.close();
    const progress = await rpc(url, 'tools/call', { name: 'progress', arguments: { steps: 3 } }, { meta: { progressToken: 'mine' } });
    assert.deepEqual(
      progress.notifications.map((n) => [n.params!['progressToken'], n.params!['progress']]),
      [
        ['mine', 1],
        ['mine', 2],
        ['mine', 3],
      ],
    );
    assert.equal(progress.body.id !== undefined, true);
    await expectCallsKeptApart(url, ['Uno', 'Dos', 'Tres']);
    const mismatch = await rpc(url, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'mcp-name': 'other' } });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error?.code, -32020);
    const abort = new AbortController();
    const slow = rpc(url, 'tools/call', { name: 'slow', arguments: { ms: 20000 } }, { signal: abort.signal }).catch((e: Error) => e);
    await until(() => /slow: started/.test(proxy.stderr()), 10_000, 'the slow call');
    abort.abort();
    await slow;
    await until(() => /slow: cancelled/.test(proxy.stderr()), 10_000, 'cancellation to reach the server');
  });
});

describe('configuration file: SIGHUP reload', () => {
  it('applies changes for new calls, keeps suspended interactions, and rejects a broken file', async () => {
    const one = `default: main\nupstreams:\n  main: { stdio: { command: ${node}, args: [${fixture}] }, gatherWindowMs: 25 }\n`;
    const path = writeConfig(one);
    const proxy = await startProxy(['--config', path]);
    try {
      const suspended = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: { elicitation: {} } }));
      // Calls keep coming while the file changes.
      const load = (async () => {
        for (let i = 0; i < 20; i++) {
          const r = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: `n${i}` } });
          assert.equal(textOf(r.body.result), `echo: n${i}`);
        }
      })();
      rewriteConfig(
        path,
        `${one.replace('gatherWindowMs: 25', 'gatherWindowMs: 30, callTimeout: 1')}  extra: { stdio: { command: ${node}, args: [${fixture}] } }\n`,
      );
      proxy.child.kill('SIGHUP');
      await until(() => /configuration reloaded/.test(proxy.stderr()), 10_000, 'reload');
      await load;
      assert.match(proxy.stderr(), /upstream reconfigured[^\n]*main|"upstream":"main"[^\n]*upstream reconfigured/);
      const resumed = await rpc(
        proxy.url,
        'tools/call',
        {
          name: 'ask-name',
          arguments: {},
          requestState: suspended.requestState,
          inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Kept' } } },
        },
        { caps: { elicitation: {} } },
      );
      assert.equal(textOf(resumed.body.result), 'Hello, Kept!', 'the interaction suspended before the reload survived it');
      // The changed limits apply to new calls.
      const hung = await rpc(proxy.url, 'tools/call', { name: 'hang', arguments: {} });
      assert.match(hung.body.error?.message ?? '', /did not answer within 1s/);
      const added = await rpc(at(proxy, 'extra'), 'tools/call', { name: 'echo', arguments: { text: 'new' } });
      assert.equal(textOf(added.body.result), 'echo: new');

      rewriteConfig(path, 'upstreams: [');
      proxy.child.kill('SIGHUP');
      await until(() => /configuration rejected/.test(proxy.stderr()));
      const still = await rpc(at(proxy, 'extra'), 'tools/call', { name: 'echo', arguments: { text: 'kept' } });
      assert.equal(textOf(still.body.result), 'echo: kept');

      rewriteConfig(path, one);
      proxy.child.kill('SIGHUP');
      await until(() => /upstream removed/.test(proxy.stderr()));
      assert.equal((await rpc(at(proxy, 'extra'), 'tools/list')).status, 404);
    } finally {
      await proxy.stop();
    }
  });
});
