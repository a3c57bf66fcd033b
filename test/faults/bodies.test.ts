// Request bodies that stall, pile up or are malformed: each gets a JSON-RPC-shaped error with the
// right status, the connection is not held, and a long call whose body has arrived is not timed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { post, PROTOCOL, rpc } from '../support/rpc.js';

/** A request written by hand over TCP; resolves with everything the server sent once it closes. */
function rawRequest(url: string, path: string, headers: Record<string, string>, body: string, ms: number): Promise<{ text: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connection still open after ${ms} ms; got ${JSON.stringify(text)}`));
    }, ms);
    socket.on('data', (d) => {
      text += d.toString();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    socket.on('error', () => {});
    const head = Object.entries({ host: `${hostname}:${port}`, 'content-type': 'application/json', ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${body}`);
  });
}

const jsonHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PROTOCOL,
  'mcp-method': 'tools/list',
};
const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const listBody = (pad = '') => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...META, pad } } });

describe('request bodies', () => {
  let proxy: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--body-timeout', '1', '--max-inflight-bytes', '20000', '--', process.execPath, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
  });

  it('answers a stalled body with 408 and closes the connection', async () => {
    const r = await rawRequest(proxy.url, '/mcp', { 'content-length': '100' }, '{"jsonrpc":', 5000);
    assert.match(r.text, /^HTTP\/1\.1 408 /);
    assert.match(r.text, /connection: close/i);
    const body = JSON.parse(r.text.slice(r.text.indexOf('\r\n\r\n') + 4)) as { error: { code: number; message: string } };
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, /did not arrive within 1 s/);
    assert.ok(r.closedAfterMs < 4000, `closed after ${r.closedAfterMs} ms`);
  });

  it('does not time a call once its body is read', async () => {
    const reply = await rpc(proxy.url, 'tools/call', { name: 'slow', arguments: { ms: 2500 } });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.error, undefined, JSON.stringify(reply.body));
  });

  it('refuses bodies beyond --max-inflight-bytes with 503, and takes them again once answered', async () => {
    const held = rawRequest(proxy.url, '/mcp', { 'content-length': '15000' }, '{"jsonrpc":', 5000);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await post(proxy.url, listBody(), jsonHeaders)).status, 200, 'a small body still fits');
    const big = listBody('x'.repeat(6000));
    const refused = await post(proxy.url, big, jsonHeaders);
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error?.code, -32603);
    assert.match(refused.body.error?.message ?? '', /too many request bytes at once \(limit 20000\)/);
    assert.match((await held).text, /^HTTP\/1\.1 408 /);
    assert.equal((await post(proxy.url, big, jsonHeaders)).status, 200, 'the budget is free again');
  });

  it('refuses a body over 4 MiB with 413', async () => {
    const r = await post(proxy.url, listBody('x'.repeat(4 * 1024 * 1024)), jsonHeaders);
    assert.equal(r.status, 413);
    assert.equal(r.body.error?.code, -32600);
  });
});
