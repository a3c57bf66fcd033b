// The fast lane's pure parts: which tools/call requests it takes (everything else is left to the
// official front), how it encodes a result, and the hand-back of an outcome to the official front.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { declaresParamHeaders, recognizeToolCall, type FastRequestHead } from '../../src/front/fast-call.js';
import { partitionInputResponses } from '../../src/protocol/answers.js';
import { encodeInputRequired, encodeToolResult } from '../../src/front/fast-result.js';
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import { linkWebRequest, recordOfContext } from '../../src/front/handler-context.js';
import { takePrecomputed, withPrecomputed } from '../../src/front/precomputed.js';
import { FrontRequest, recordFrontRequest } from '../../src/telemetry/front-request.js';

const REV = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': REV,
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
const HEAD: FastRequestHead = {
  httpMethod: 'POST',
  contentType: 'application/json',
  protocolVersion: REV,
  mcpMethod: 'tools/call',
  mcpName: 'echo',
  repeatedHeader: false,
};
const body = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hi' }, _meta: ENVELOPE, ...params },
  ...extra,
});
const noSchema = () => undefined;

describe('fast lane: recognizing a plain tools/call', () => {
  it('takes a plain call, shaped as the official front hands it on', () => {
    const call = recognizeToolCall(HEAD, body({}), noSchema);
    assert.deepEqual(call, {
      id: 1,
      name: 'echo',
      params: { name: 'echo', arguments: { text: 'hi' } },
      capabilities: { elicitation: {} },
      requestState: undefined,
      inputResponses: undefined,
      droppedInputKeys: [],
    });
  });

  it('takes a retry and splits its input responses as the SDK does', () => {
    const call = recognizeToolCall(
      HEAD,
      body({ requestState: 's', inputResponses: { a: { action: 'accept' }, b: 'x', c: { method: 'm' }, d: { result: {} } } }),
      noSchema,
    );
    assert.equal(call?.requestState, 's');
    assert.deepEqual(call?.inputResponses, { a: { action: 'accept' } });
    assert.deepEqual(call?.droppedInputKeys, ['b', 'c', 'd']);
    assert.deepEqual(call?.params, { name: 'echo', arguments: { text: 'hi' } });
  });

  it('takes a call without arguments', () => {
    const b = body({});
    delete (b.params as Record<string, unknown>)['arguments'];
    assert.deepEqual(recognizeToolCall(HEAD, b, noSchema)?.params, { name: 'echo' });
  });

  const refused: Array<[string, FastRequestHead, unknown]> = [
    ['another HTTP method', { ...HEAD, httpMethod: 'GET' }, body({})],
    ['a repeated standard header', { ...HEAD, repeatedHeader: true }, body({})],
    ['a body that is not JSON', { ...HEAD, contentType: 'text/plain' }, body({})],
    ['another method', { ...HEAD, mcpMethod: 'tools/list' }, { ...body({}), method: 'tools/list' }],
    ['a notification', HEAD, { jsonrpc: '2.0', method: 'tools/call', params: body({}).params }],
    ['a batch', HEAD, [body({})]],
    ['no protocol version header', { ...HEAD, protocolVersion: undefined }, body({})],
    ['a legacy protocol version header', { ...HEAD, protocolVersion: '2025-11-25' }, body({})],
    ['no Mcp-Method header', { ...HEAD, mcpMethod: undefined }, body({})],
    ['no Mcp-Name header', { ...HEAD, mcpName: undefined }, body({})],
    ['an Mcp-Name for another tool', { ...HEAD, mcpName: 'other' }, body({})],
    ['an Mcp-Name in Base64', { ...HEAD, mcpName: '=?base64?ZWNobw==?=' }, body({})],
    ['no envelope', HEAD, body({ _meta: undefined })],
    ['an envelope naming another revision', HEAD, body({ _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } })],
    ['an envelope with a bad clientInfo', HEAD, body({ _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': 'x' } })],
    ['an envelope without capabilities', HEAD, body({ _meta: { 'io.modelcontextprotocol/protocolVersion': REV } })],
    ['a progress token', HEAD, body({ _meta: { ...ENVELOPE, progressToken: 1 } })],
    ['a log level', HEAD, body({ _meta: { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug' } })],
    ['a vendor _meta key', HEAD, body({ _meta: { ...ENVELOPE, 'com.example/x': 1 } })],
    ['an unknown params key', HEAD, body({ extra: 1 })],
    ['a task', HEAD, body({ task: {} })],
    ['arguments that are an array', HEAD, body({ arguments: [] })],
    ['arguments that are null', HEAD, body({ arguments: null })],
    ['arguments with an own __proto__ key', HEAD, body({ arguments: JSON.parse('{"__proto__": {"x": 1}}') })],
    ['a name that is not a string', { ...HEAD, mcpName: '5' }, body({ name: 5 })],
    ['a requestState that is not a string', HEAD, body({ requestState: 5 })],
    ['an id that is null', HEAD, { ...body({}), id: null }],
  ];
  for (const [what, head, b] of refused) it(`leaves ${what} to the official front`, () => assert.equal(recognizeToolCall(head, b, noSchema), undefined));

  it('leaves a tool whose schema declares Mcp-Param headers to the official front', () => {
    const schema = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } };
    assert.equal(
      recognizeToolCall(HEAD, body({}), () => schema),
      undefined,
    );
    assert.notEqual(
      recognizeToolCall(HEAD, body({}), () => ({ type: 'object', properties: { text: { type: 'string' } } })),
      undefined,
    );
  });

  it('reads a schema for x-mcp-header once per schema object', () => {
    const schema = { type: 'object', properties: {} } as Record<string, unknown>;
    assert.equal(declaresParamHeaders(schema), false);
    (schema['properties'] as Record<string, unknown>)['p'] = { 'x-mcp-header': 'P' };
    assert.equal(declaresParamHeaders(schema), false, 'the answer is kept for the object');
    assert.equal(declaresParamHeaders({ ...schema }), true);
    assert.equal(declaresParamHeaders(undefined), false);
  });

  it('splits input responses that are not an object into nothing', () => {
    assert.deepEqual(partitionInputResponses('x'), { accepted: {}, dropped: [] });
    assert.deepEqual(partitionInputResponses([{ action: 'accept' }]), { accepted: {}, dropped: [] });
  });
});

describe('fast lane: encoding a result', () => {
  const info = { name: 'legacy', version: '1' };
  const encoded = (result: Record<string, unknown>, id: string | number = 3) => {
    const text = encodeToolResult(id, result, info);
    return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
  };

  it('adds resultType and the server identity, in a JSON-RPC response', () => {
    assert.deepEqual(encoded({ content: [{ type: 'text', text: 'hi' }] }, 'x'), {
      jsonrpc: '2.0',
      id: 'x',
      result: { content: [{ type: 'text', text: 'hi' }], resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': info } },
    });
  });

  it('keeps isError, an object structuredContent and an explicit complete resultType', () => {
    const r = encoded({ content: [], isError: true, structuredContent: { n: 1 }, resultType: 'complete' })?.['result'];
    assert.deepEqual(r, {
      content: [],
      isError: true,
      structuredContent: { n: 1 },
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': info },
    });
  });

  const unusual: Array<[string, Record<string, unknown>]> = [
    ['an input_required round', { resultType: 'input_required', inputRequests: {}, requestState: 's' }],
    ['a result _meta', { content: [], _meta: { a: 1 } }],
    ['an unknown key', { content: [], 'x-extra': true }],
    ['no content', { structuredContent: {} }],
    ['content that is not an array', { content: 'hi' }],
    ['an image block', { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] }],
    ['a text block with annotations', { content: [{ type: 'text', text: 'hi', annotations: { priority: 1 } }] }],
    ['a text block whose text is not a string', { content: [{ type: 'text', text: 5 }] }],
    ['isError that is not a boolean', { content: [], isError: 'yes' }],
    ['structuredContent that is an array', { content: [], structuredContent: [1] }],
    ['structuredContent with an own __proto__ key', { content: [], structuredContent: JSON.parse('{"__proto__": 1}') }],
  ];
  for (const [what, result] of unusual) it(`leaves ${what} to the official front`, () => assert.equal(encoded(result), undefined));
});

describe('fast lane: encoding an input_required round', () => {
  const info = { name: 'legacy', version: '1' };
  const round = (inputRequests: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    resultType: 'input_required',
    inputRequests,
    requestState: 's',
    ...extra,
  });
  const form = { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } };
  const url = { method: 'elicitation/create', params: { mode: 'url', message: 'Go', url: 'https://example.com' } };
  const sample = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };
  const sampleTools = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5, tools: [] } };
  const roots = { method: 'roots/list' };
  const encodes = (inputRequests: Record<string, unknown>, declared: Record<string, unknown>) =>
    encodeInputRequired(1, round(inputRequests), info, declared) !== undefined;

  it('adds the server identity, in a JSON-RPC response', () => {
    assert.deepEqual(JSON.parse(encodeInputRequired(1, round({ q: form }), info, { elicitation: {} })!), {
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'input_required', inputRequests: { q: form }, requestState: 's', _meta: { 'io.modelcontextprotocol/serverInfo': info } },
    });
  });

  it('encodes only what the declared capabilities cover, as the SDK reads them', () => {
    assert.equal(encodes({ q: form }, { elicitation: {} }), true, 'a bare elicitation means form');
    assert.equal(encodes({ q: form }, { elicitation: { form: {} } }), true);
    assert.equal(encodes({ q: form }, { elicitation: { url: {} } }), false, 'url only');
    assert.equal(encodes({ q: url }, { elicitation: { url: {} } }), true);
    assert.equal(encodes({ q: url }, { elicitation: {} }), false);
    assert.equal(encodes({ q: sample }, { sampling: {} }), true);
    assert.equal(encodes({ q: sampleTools }, { sampling: {} }), false);
    assert.equal(encodes({ q: sampleTools }, { sampling: { tools: {} } }), true);
    assert.equal(encodes({ q: roots }, { roots: {} }), true);
    assert.equal(encodes({ q: roots }, {}), false);
    assert.equal(encodes({ a: form, b: roots }, { elicitation: {} }), false, 'every request must be covered');
    assert.equal(encodes({ q: { method: 'ping' } }, { elicitation: {}, sampling: {}, roots: {} }), false, 'not an input request');
    assert.equal(encodes({ q: 'x' }, { elicitation: {} }), false);
    assert.equal(encodes({ q: { method: 'sampling/createMessage', params: null } }, { sampling: {} }), false, 'params that are not an object');
  });

  it('leaves unusual rounds to the official front', () => {
    assert.equal(encodeInputRequired(1, round({ q: form }, { _meta: {} }), info, { elicitation: {} }), undefined);
    assert.equal(encodeInputRequired(1, round({ q: form }, { requestState: 5 }), info, { elicitation: {} }), undefined);
    assert.equal(encodeInputRequired(1, { ...round({ q: form }), resultType: 'complete' }, info, { elicitation: {} }), undefined);
  });
});

describe('fast lane: handing an outcome to the official front', () => {
  /** The web Request the SDK's node adapter made of `req`, as the front links it, and the context the handler gets. */
  const served = (req: object) => {
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST' });
    linkWebRequest(req, request);
    return (id: number) => ({ http: { req: request }, mcpReq: { id } }) as unknown as ServerContext;
  };

  it('gives the outcome once, to the request it belongs to', async () => {
    const outcome = { ok: true as const, result: { content: [] } };
    const req = {};
    const other = {};
    await withPrecomputed(req, 4, outcome, async () => {
      await Promise.resolve();
      assert.equal(takePrecomputed(served(other)(4)), undefined, 'another HTTP request with the same JSON-RPC id');
      assert.equal(takePrecomputed(served(req)(5)), undefined, 'another id');
      assert.equal(takePrecomputed(served(req)(4)), outcome);
      assert.equal(takePrecomputed(served(req)(4)), undefined, 'taken already');
    });
  });

  it("carries the request's record and leaves its authInfo as the auth gate made it, or absent", () => {
    const req: { auth?: AuthInfo } = { auth: { token: '', clientId: 'c', scopes: ['s'], extra: { principal: 'alice' } } };
    const record = new FrontRequest('default', 'alice', { method: 'tools/call' }, {});
    recordFrontRequest(req, record);
    const handlerOf = served(req);
    withPrecomputed(req, 1, { ok: false, error: new Error('x') }, () => undefined);
    assert.deepEqual(req.auth, { token: '', clientId: 'c', scopes: ['s'], extra: { principal: 'alice' } });
    assert.equal(recordOfContext(handlerOf(1)), record);
    const bare: { auth?: AuthInfo } = {};
    recordFrontRequest(bare, record);
    const bareHandler = served(bare);
    withPrecomputed(bare, 2, { ok: true, result: { content: [] } }, () => undefined);
    assert.equal(recordOfContext(bareHandler(2)), record);
    assert.equal('auth' in bare, false, 'an unauthenticated request is given no authInfo');
    assert.equal(recordOfContext({ mcpReq: { id: 1 } } as unknown as ServerContext), undefined, 'a request the front did not link');
  });
});
