// The fast lane answers exactly as the official front does: two proxies in front of the
// same legacy server, one with the fast lane (the default) and one with `--fast-lane off`, get the
// same requests. Each answer's status, content type and JSON-RPC body must agree (requestState is
// sealed per proxy, so it is compared by shape). The corpus covers what the fast lane takes (plain
// calls and retries, with every kind of outcome: results of each shape, malformed results, errors,
// input_required rounds) and what it must leave to the official front (header, envelope and params
// faults, streams); the access log says which lane answered, so a case that silently stopped
// taking the fast lane fails too.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { PROTOCOL, parseSse } from '../support/rpc.js';
import { until } from '../support/wait.js';

const CAPS = { elicitation: { form: {} } };

interface Answer {
  status: number;
  type: string;
  body: unknown;
}

interface Case {
  name: string;
  /** The params of the tools/call (envelope added unless `meta` replaces it). */
  params: Record<string, unknown>;
  headers?: Record<string, string | undefined>;
  meta?: Record<string, unknown>;
  caps?: Record<string, unknown>;
  id?: string | number;
  /** Whether the fast lane answers it itself (else the official front does, on both proxies). */
  fast: boolean;
  /** Refused before the route (no access-log line to read). */
  unlogged?: true;
  /** The JSON-RPC error code both must answer with. */
  code?: number;
}

function envelope(caps: Record<string, unknown>): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL,
    'io.modelcontextprotocol/clientInfo': { name: 'diff-test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': caps,
  };
}

async function send(url: string, c: Case): Promise<Answer> {
  const name = typeof c.params['name'] === 'string' ? c.params['name'] : undefined;
  const body = { jsonrpc: '2.0', id: c.id ?? 7, method: 'tools/call', params: { ...c.params, _meta: c.meta ?? envelope(c.caps ?? CAPS) } };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
    'mcp-method': 'tools/call',
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
  for (const [k, v] of Object.entries(c.headers ?? {})) {
    if (v === undefined) delete headers[k];
    else headers[k] = v;
  }
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  return { status: res.status, type: type.split(';')[0]!, body: type.includes('text/event-stream') ? parseSse(text) : text ? JSON.parse(text) : null };
}

/** The body with each requestState replaced by its shape (sealed per proxy). */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === 'requestState' && typeof v === 'string' ? `<state of ${v.length > 100 ? 'length > 100' : v.length}>` : comparable(v),
    ]),
  );
}

const stateOf = (a: Answer) => (a.body as { result: { requestState: string; inputRequests: Record<string, unknown> } }).result;

describe('the fast lane answers as the official front does', () => {
  let upstream: Running & { url: string };
  let fast: ProxyProcess;
  let official: ProxyProcess;

  before(async () => {
    upstream = await startHttpFixture();
    [fast, official] = await Promise.all([
      startProxy(['--upstream', upstream.url, '--gather-window', '0']),
      startProxy(['--upstream', upstream.url, '--gather-window', '0', '--fast-lane', 'off']),
    ]);
  });
  after(async () => {
    await Promise.all([fast?.stop(), official?.stop()]);
    await upstream?.stop();
  });

  /** Requests the fast proxy has logged so far: its access line for the next one is the one after. */
  let logged = 0;
  /** The fast proxy's access-log line for the request it answered last. */
  async function lastLine(): Promise<Record<string, unknown>> {
    logged++;
    await until(() => accessLines(fast).length >= logged, 5000);
    return accessLines(fast)[logged - 1]!;
  }

  /**
   * Sends `c` to both proxies (`forOfficial`, when given, to the official one: a retry carries each
   * proxy's own requestState); asserts equal answers and which lane answered on the fast proxy.
   */
  async function both(c: Case, forOfficial: Case = c): Promise<[Answer, Answer]> {
    const [a, b] = await Promise.all([send(fast.url, c), send(official.url, forOfficial)]);
    assert.deepEqual(comparable(a), comparable(b), `${c.name}: the two fronts disagree`);
    if (c.code !== undefined) assert.equal((a.body as { error?: { code: number } }).error?.code, c.code, `${c.name}: ${JSON.stringify(a.body)}`);
    if (c.unlogged) return [a, b];
    const line = await lastLine();
    assert.equal(line['lane'], c.fast ? 'fast' : undefined, `${c.name}: answered by the ${line['lane'] === 'fast' ? 'fast lane' : 'official front'}`);
    return [a, b];
  }

  const echo = { name: 'echo', arguments: { text: 'hi' } };
  const cases: Case[] = [
    { name: 'a plain call', params: echo, fast: true },
    { name: 'a string id', params: echo, id: 'abc', fast: true },
    { name: 'no arguments (the legacy server reports invalid arguments)', params: { name: 'echo' }, fast: true },
    { name: 'arguments of the wrong type for the tool (isError)', params: { name: 'echo', arguments: { text: 5 } }, fast: true },
    { name: 'an unknown tool', params: { name: 'no-such-tool', arguments: {} }, fast: true },
    { name: 'content-less result with structuredContent', params: { name: 'no-content', arguments: {} }, fast: true },
    { name: 'result with _meta and an extra key', params: { name: 'structured', arguments: {} }, fast: true },
    { name: 'image and resource-link content, a text block with annotations', params: { name: 'mixed-content', arguments: {} }, fast: true },
    { name: 'a result no revision allows (-32602)', params: { name: 'malformed-result', arguments: {} }, fast: true, code: -32602 },
    { name: 'Mcp-Name missing', params: echo, headers: { 'mcp-name': undefined }, fast: false },
    { name: 'Mcp-Name names another tool', params: echo, headers: { 'mcp-name': 'other' }, fast: false },
    { name: 'Mcp-Name in Base64', params: echo, headers: { 'mcp-name': '=?base64?ZWNobw==?=' }, fast: false },
    { name: 'Mcp-Name in broken Base64', params: echo, headers: { 'mcp-name': '=?base64?!!?=' }, fast: false },
    { name: 'Mcp-Method missing', params: echo, headers: { 'mcp-method': undefined }, fast: false },
    { name: 'Mcp-Method names another method', params: echo, headers: { 'mcp-method': 'tools/list' }, fast: false },
    { name: 'MCP-Protocol-Version missing', params: echo, headers: { 'mcp-protocol-version': undefined }, fast: false },
    { name: 'MCP-Protocol-Version of another revision', params: echo, headers: { 'mcp-protocol-version': '2025-11-25' }, fast: false },
    { name: 'a text/plain body', params: echo, headers: { 'content-type': 'text/plain' }, fast: false, unlogged: true },
    { name: 'an envelope without capabilities', params: echo, meta: { 'io.modelcontextprotocol/protocolVersion': PROTOCOL }, fast: false },
    { name: 'an envelope with a bad clientInfo', params: echo, meta: { ...envelope(CAPS), 'io.modelcontextprotocol/clientInfo': 'me' }, fast: false },
    {
      name: 'a progressToken (a stream)',
      params: { name: 'progress', arguments: { steps: 2 } },
      meta: { ...envelope(CAPS), progressToken: 'p1' },
      fast: false,
    },
    { name: 'a vendor _meta key', params: { name: 'meta', arguments: {} }, meta: { ...envelope(CAPS), 'com.example/x': 1 }, fast: false },
    { name: 'an unknown params key', params: { ...echo, extra: true }, fast: false },
    { name: 'arguments that are not an object', params: { name: 'echo', arguments: ['hi'] }, fast: false },
    { name: 'a name that is not a string', params: { name: 5 }, headers: { 'mcp-name': '5' }, fast: false },
    { name: 'a requestState that is not a string', params: { ...echo, requestState: 5 }, fast: false },
    { name: 'a requestState nobody issued (an error)', params: { ...echo, requestState: 'forged' }, fast: true, code: -32602 },
    { name: 'a question without the capability for it', params: { name: 'ask-name', arguments: {} }, caps: {}, fast: true },
    { name: 'a question (input_required)', params: { name: 'ask-name', arguments: {} }, fast: true },
    { name: 'a URL question', params: { name: 'ask-url', arguments: {} }, caps: { elicitation: { url: {} } }, fast: true },
    { name: 'a URL question without the url capability', params: { name: 'ask-url', arguments: {} }, caps: { elicitation: {} }, fast: true },
    { name: 'a sampling question', params: { name: 'summarize', arguments: { text: 'x' } }, caps: { sampling: {} }, fast: true },
    { name: 'a roots question', params: { name: 'list-roots', arguments: {} }, caps: { roots: {} }, fast: true },
    { name: 'three questions at once', params: { name: 'ask-all', arguments: {} }, caps: { elicitation: {}, sampling: {}, roots: {} }, fast: true },
  ];
  for (const c of cases)
    it(c.name, async () => {
      await both(c);
    });

  it('a repeated Mcp-Name header', async () => {
    const twice = (url: string) =>
      sendRepeated(url, { name: 'echo', arguments: { text: 'hi' } }, [
        ['mcp-name', 'echo'],
        ['Mcp-Name', 'echo'],
      ]);
    const [a, b] = await Promise.all([twice(fast.url), twice(official.url)]);
    assert.deepEqual(a, b);
    assert.equal(a.status, 400);
    assert.equal((await lastLine())['lane'], undefined);
  });

  it('a retry with the answer, on the fast lane, completes the same way', async () => {
    const ask = { name: 'ask-name', arguments: { greeting: 'Hi' } };
    const [a, b] = await both({ name: 'ask', params: ask, fast: true });
    const retry = (first: Answer) => {
      const { requestState, inputRequests } = stateOf(first);
      return { ...ask, requestState, inputResponses: { [Object.keys(inputRequests)[0]!]: { action: 'accept', content: { name: 'Ada' } } } };
    };
    const [ra] = await both({ name: 'retry', params: retry(a), fast: true }, { name: 'retry', params: retry(b), fast: true });
    assert.equal((ra.body as { result: { content: Array<{ text: string }> } }).result.content[0]!.text, 'Hi, Ada!');
    assert.equal(accessLines(fast)[logged - 1]!['round'], 1);
  });

  it('a retry whose answer is a JSON-RPC response is refused the same way, and loses nothing', async () => {
    const ask = { name: 'ask-name', arguments: {} };
    const [a, b] = await both({ name: 'ask', params: ask, fast: true });
    const answer = (first: Answer, response: Record<string, unknown>) => {
      const { requestState, inputRequests } = stateOf(first);
      return { ...ask, requestState, inputResponses: { [Object.keys(inputRequests)[0]!]: response } };
    };
    const wrapped = { jsonrpc: '2.0', id: 1, result: { action: 'accept', content: { name: 'Ada' } } };
    const [ra] = await both({ name: 'wrapped', params: answer(a, wrapped), fast: true }, { name: 'wrapped', params: answer(b, wrapped), fast: true });
    assert.equal((ra.body as { error: { code: number } }).error.code, -32602);
    // The same round can still be answered properly, and that retry takes the fast lane.
    const good = { action: 'accept', content: { name: 'Ada' } };
    const [ga] = await both({ name: 'answered', params: answer(a, good), fast: true }, { name: 'answered', params: answer(b, good), fast: true });
    assert.equal((ga.body as { result: { content: Array<{ text: string }> } }).result.content[0]!.text, 'Hello, Ada!');
  });
});

/** A tools/call with some headers sent more than once (fetch would join them into one). */
function sendRepeated(url: string, params: Record<string, unknown>, extra: Array<[string, string]>): Promise<Answer> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { ...params, _meta: envelope(CAPS) } });
  const headers = [
    ['host', new URL(url).host],
    ['content-type', 'application/json'],
    ['accept', 'application/json, text/event-stream'],
    ['mcp-protocol-version', PROTOCOL],
    ['mcp-method', 'tools/call'],
    ...extra,
    ['content-length', String(Buffer.byteLength(body))],
  ].flat();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']).split(';')[0]!, body: text ? JSON.parse(text) : null }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

function accessLines(p: Running): Array<Record<string, unknown>> {
  return p
    .stderr()
    .split('\n')
    .filter((l) => l.includes('"message":"access"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
