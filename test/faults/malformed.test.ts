// Bodies and paths the proxy cannot serve get a JSON-RPC-shaped error with a 4xx status: never a
// 500, never express's HTML, and never an error-level log line for the client's mistake.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { FIXTURE, PROXY_BIN, startProcess, startProxy, TEST_STATE_KEY, type ProxyProcess } from '../support/processes.js';
import { PROTOCOL } from '../support/rpc.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };

async function send(url: string, body: string | Uint8Array, contentType = 'application/json', method = 'POST') {
  const res = await fetch(url, { method, headers: { ...HEADERS, 'content-type': contentType }, ...(method === 'GET' ? {} : { body }) });
  const text = await res.text();
  assert.match(res.headers.get('content-type') ?? '', /application\/json/, `a JSON body, got: ${text.slice(0, 200)}`);
  return { status: res.status, body: JSON.parse(text) as { jsonrpc: string; id: unknown; error: { code: number; message: string } } };
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const callWith = (args: string, meta = JSON.stringify(META)) =>
  `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":${args},"_meta":${meta}}}`;

describe('malformed input', () => {
  let proxy: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--', process.execPath, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
  });

  it('refuses arguments and _meta nested 5,000 deep with 400 and -32600, logging no error', async () => {
    const deepArgs = await send(proxy.url, callWith(`{"text":${nested(5000)}}`));
    assert.equal(deepArgs.status, 400);
    assert.equal(deepArgs.body.error.code, -32600);
    assert.match(deepArgs.body.error.message, /nested deeper than 128 levels/);
    const deepMeta = await send(proxy.url, callWith('{"text":"x"}', JSON.stringify({ ...META, deep: 'DEEP' }).replace('"DEEP"', nested(5000))));
    assert.equal(deepMeta.status, 400);
    assert.equal(deepMeta.body.error.code, -32600);
    // Brackets inside strings are not nesting.
    const inString = await send(proxy.url, callWith(JSON.stringify({ text: nested(5000) })));
    assert.equal(inString.status, 200);
    assert.doesNotMatch(proxy.stderr(), /"level":"error"/);
  });

  it('refuses invalid UTF-8 with -32700 and a charset other than utf-8 with 415', async () => {
    const bytes = Buffer.concat([Buffer.from(callWith('{"text":"')), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const bad = await send(proxy.url, bytes);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, -32700);
    assert.match(bad.body.error.message, /not valid UTF-8/);
    const utf16 = await send(proxy.url, Buffer.from(callWith('{"text":"x"}'), 'utf16le'), 'application/json; charset=utf-16');
    assert.equal(utf16.status, 415);
    assert.equal(utf16.body.error.code, -32600);
    assert.match(utf16.body.error.message, /charset must be utf-8/);
    const fine = await send(proxy.url, callWith('{"text":"é"}'), 'application/json; charset=UTF-8');
    assert.equal(fine.status, 200);
  });

  it('answers unknown paths with a JSON-RPC 404', async () => {
    const base = new URL(proxy.url);
    for (const [path, method] of [
      ['/nope', 'GET'],
      ['/mcp/extra', 'POST'],
      ['/servers/x/other', 'POST'],
      ['/healthz', 'POST'],
    ] as const) {
      const r = await send(new URL(path, base).href, '{}', 'application/json', method);
      assert.equal(r.status, 404, path);
      assert.equal(r.body.jsonrpc, '2.0');
      assert.equal(r.body.error.code, -32601, path);
    }
  });
});

describe('malformed input on the stdio front', () => {
  it('refuses a message nested 5,000 deep with -32600', async () => {
    const proxy = await startProcess(process.execPath, [PROXY_BIN, '--stdio', '--', process.execPath, FIXTURE], /serving 2026-07-28 on stdio/, {
      env: { MRTR_STATE_KEY: TEST_STATE_KEY },
    });
    try {
      const lines = createInterface({ input: proxy.child.stdout! });
      const reply = once(lines, 'line');
      proxy.child.stdin!.write(`${callWith(`{"text":${nested(5000)}}`)}\n`);
      const [line] = (await Promise.race([reply, new Promise((_, reject) => setTimeout(() => reject(new Error('no reply in 10 s')), 10_000))])) as [string];
      const body = JSON.parse(line) as { id: unknown; error: { code: number; message: string } };
      assert.equal(body.id, 7);
      assert.equal(body.error.code, -32600);
      assert.match(body.error.message, /nested deeper than 128 levels/);
    } finally {
      await proxy.stop();
    }
  });
});
