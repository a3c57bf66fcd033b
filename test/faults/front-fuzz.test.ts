// Property-based, over real HTTP against a running proxy: random JSON-RPC messages (known and
// unknown methods, arbitrary params, ids, requestState and inputResponses), random headers, and
// random bytes. The proxy may refuse anything, but never with a 500, never with a body that is not
// a JSON-RPC error, and it is still serving afterwards. A fixed number of runs from a printed seed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fuzzRuns } from '../support/fuzz.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { PROTOCOL, rpc } from '../support/rpc.js';

const METHODS = ['tools/list', 'tools/call', 'resources/list', 'resources/read', 'prompts/get', 'server/discover', 'ping', 'completion/complete'];
const json = fc.jsonValue({ maxDepth: 3 });
const meta = fc.oneof(
  fc.constant({
    'io.modelcontextprotocol/protocolVersion': PROTOCOL,
    'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  }),
  fc.dictionary(fc.constantFrom('io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities', 'progressToken', 'x'), json),
  json,
);
const params = fc.record(
  {
    name: fc.oneof(fc.constant('echo'), fc.string({ maxLength: 20 }), json),
    arguments: json,
    uri: fc.string({ maxLength: 30 }),
    _meta: meta,
    requestState: fc.string({ maxLength: 200 }),
    inputResponses: json,
  },
  { requiredKeys: [] },
);
const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), json),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), json),
    method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 20 })),
    params: fc.oneof(params, json),
  },
  { requiredKeys: ['method'] },
);
const body = fc.oneof(
  { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.array(message, { maxLength: 3 }).map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 100 }) },
);
const headers = fc.record(
  {
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json; charset=latin1'),
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/html'),
    'mcp-protocol-version': fc.constantFrom(PROTOCOL, '2025-11-25', 'x'),
    'mcp-method': fc.oneof(
      fc.constantFrom(...METHODS),
      fc.string({ maxLength: 10 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
    ),
    'mcp-name': fc.constantFrom('echo', 'nope'),
  },
  { requiredKeys: ['content-type'] },
);

describe('the HTTP front, fuzzed', () => {
  let proxy: ProxyProcess;
  before(async () => {
    // reject: no legacy-client session (and child) per random initialize.
    proxy = await startProxy(['--legacy-clients', 'reject', '--', process.execPath, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
  });

  it('never answers 500 or a non-JSON-RPC error, and keeps serving', async (t) => {
    await fc.assert(
      fc.asyncProperty(body, headers, fc.constantFrom('POST', 'POST', 'POST', 'GET', 'DELETE'), async (b, h, method) => {
        const res = await fetch(proxy.url, { method, headers: h, ...(method === 'POST' ? { body: b } : {}), signal: AbortSignal.timeout(10_000) });
        const type = res.headers.get('content-type') ?? '';
        // A stream may stay open (listen, progress): its start is all that is checked.
        const streaming = type.includes('text/event-stream');
        if (streaming) await res.body?.cancel();
        const text = streaming ? '' : await res.text();
        assert.ok(res.status < 500, `HTTP ${res.status} for ${method} ${String(b).slice(0, 300)}: ${text.slice(0, 300)}`);
        if (res.status >= 400) {
          const reply = JSON.parse(text) as { jsonrpc?: string; error?: { code?: unknown } };
          assert.equal(reply.jsonrpc, '2.0', text);
          assert.equal(typeof reply.error?.code, 'number', text);
        }
      }),
      fuzzRuns(t, 500),
    );
    const still = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'alive' } });
    assert.equal(still.status, 200);
    assert.doesNotMatch(proxy.stderr(), /"level":"error"/);
  });
});
