// The fast lane's pure parts: which tools/call requests it takes (everything else is left to the
// official front), and how it encodes every outcome of one, as the official front does.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { declaresParamHeaders, EnvelopeClassifier, recognizeToolCall, type FastRequestHead } from '../../src/front/fast-call.js';
import { partitionInputResponses } from '../../src/protocol/answers.js';
import { type CallOutcome, encodeToolCallAnswer, inputRequiredRefusal } from '../../src/front/fast-result.js';
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import { linkWebRequest, recordOfContext } from '../../src/front/official-front.js';
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
    const call = recognizeToolCall(HEAD, body({}), noSchema, new EnvelopeClassifier());
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
      new EnvelopeClassifier(),
    );
    assert.equal(call?.requestState, 's');
    assert.deepEqual(call?.inputResponses, { a: { action: 'accept' } });
    assert.deepEqual(call?.droppedInputKeys, ['b', 'c', 'd']);
    assert.deepEqual(call?.params, { name: 'echo', arguments: { text: 'hi' } });
  });

  it('takes a call without arguments', () => {
    const b = body({});
    delete (b.params as Record<string, unknown>)['arguments'];
    assert.deepEqual(recognizeToolCall(HEAD, b, noSchema, new EnvelopeClassifier())?.params, { name: 'echo' });
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
  for (const [what, head, b] of refused)
    it(`leaves ${what} to the official front`, () => assert.equal(recognizeToolCall(head, b, noSchema, new EnvelopeClassifier()), undefined));

  it("answers from one lane's classifier as from a new one, each envelope classified once", () => {
    const lane = new EnvelopeClassifier();
    for (let pass = 0; pass < 2; pass++) {
      for (const [what, head, b] of refused) assert.equal(recognizeToolCall(head, b, noSchema, lane), undefined, what);
      assert.notEqual(recognizeToolCall(HEAD, body({}), noSchema, lane), undefined);
    }
    assert.ok(lane.size > 0 && lane.size < refused.length, `${lane.size} envelopes kept`);
  });

  it('leaves a tool whose schema declares Mcp-Param headers to the official front', () => {
    const schema = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } };
    assert.equal(
      recognizeToolCall(HEAD, body({}), () => schema, new EnvelopeClassifier()),
      undefined,
    );
    assert.notEqual(
      recognizeToolCall(HEAD, body({}), () => ({ type: 'object', properties: { text: { type: 'string' } } }), new EnvelopeClassifier()),
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

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const info = { name: 'legacy', version: '1' };
/** The answer for `outcome`, its body parsed. */
const answerTo = (outcome: CallOutcome, declared: Record<string, unknown> = {}, id: string | number = 3) => {
  const a = encodeToolCallAnswer(id, outcome, info, declared);
  return { status: a.status, code: a.code, body: JSON.parse(a.body) as Record<string, unknown> };
};
const resultOf = (result: Record<string, unknown>) => answerTo({ ok: true, result }).body['result'];

describe('fast lane: encoding a result', () => {
  it('adds resultType and the server identity, in a JSON-RPC response', () => {
    assert.deepEqual(answerTo({ ok: true, result: { content: [{ type: 'text', text: 'hi' }] } }, {}, 'x'), {
      status: 200,
      code: undefined,
      body: { result: { content: [{ type: 'text', text: 'hi' }], resultType: 'complete', _meta: { [SERVER_INFO]: info } }, jsonrpc: '2.0', id: 'x' },
    });
  });

  it('keeps isError, structuredContent, an explicit resultType and other keys', () => {
    assert.deepEqual(resultOf({ content: [], isError: true, structuredContent: [1], resultType: 'complete', 'x-extra': 1 }), {
      content: [],
      isError: true,
      structuredContent: [1],
      resultType: 'complete',
      'x-extra': 1,
      _meta: { [SERVER_INFO]: info },
    });
  });

  it("adds the server identity to the result's own _meta, and keeps one the result already names", () => {
    assert.deepEqual(resultOf({ content: [], _meta: { a: 1 } })?.['_meta' as never], { a: 1, [SERVER_INFO]: info });
    const own = { name: 'other', version: '2' };
    assert.deepEqual(resultOf({ content: [], _meta: { [SERVER_INFO]: own } })?.['_meta' as never], { [SERVER_INFO]: own });
    assert.deepEqual(
      resultOf({ content: [], _meta: { [SERVER_INFO]: 5, b: 2 } })?.['_meta' as never],
      { b: 2, [SERVER_INFO]: info },
      'a malformed one is dropped by the schema',
    );
  });

  it('sends content blocks as the SDK parses them: unknown members dropped, other kinds kept', () => {
    assert.deepEqual(
      resultOf({
        content: [
          { type: 'text', text: 'hi', extra: 1 },
          { type: 'image', data: 'AA==', mimeType: 'image/png' },
        ],
      })?.['content' as never],
      [
        { type: 'text', text: 'hi' },
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
      ],
    );
  });

  it('drops tasks from a capabilities member, as the SDK does on every result', () => {
    assert.deepEqual(resultOf({ content: [], capabilities: { tasks: {}, tools: {} } })?.['capabilities' as never], { tools: {} });
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['content that is not an array', { content: 'hi' }, 'expected array'],
    ['a block of no known kind', { content: [{ type: 'video' }] }, 'invalid_union'],
    ['isError that is not a boolean', { content: [], isError: 'yes' }, 'expected boolean'],
  ];
  for (const [what, result, says] of invalid)
    it(`answers ${what} with -32602 (in-band), naming the fault`, () => {
      const a = answerTo({ ok: true, result });
      assert.equal(a.status, 200);
      assert.equal(a.code, -32602);
      const error = a.body['error'] as { code: number; message: string };
      assert.equal(error.code, -32602);
      assert.match(error.message, /^Invalid tools\/call result: \[/);
      assert.ok(error.message.includes(says), error.message);
    });
});

describe('fast lane: encoding an error', () => {
  it('writes the wire error in-band, with its data', () => {
    assert.deepEqual(answerTo({ ok: false, error: { code: -32603, message: 'boom' } }, {}, 9), {
      status: 200,
      code: -32603,
      body: { jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'boom' } },
    });
    assert.deepEqual(answerTo({ ok: false, error: { code: -32602, message: 'bad', data: { reason: 'r' } } }).body['error'], {
      code: -32602,
      message: 'bad',
      data: { reason: 'r' },
    });
  });

  it('answers -32002 as -32602, and gives -32601 and -32021 their HTTP statuses', () => {
    assert.equal(answerTo({ ok: false, error: { code: -32002, message: 'gone' } }).code, -32602);
    assert.equal(answerTo({ ok: false, error: { code: -32601, message: 'no' } }).status, 404);
    assert.equal(answerTo({ ok: false, error: { code: -32021, message: 'caps' } }).status, 400);
  });
});

describe('fast lane: encoding an input_required round', () => {
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
  /** What the SDK's gate says of the round: undefined (it goes out), or the refusal's code and requiredCapabilities. */
  const gate = (inputRequests: Record<string, unknown>, declared: Record<string, unknown>) => {
    const refusal = inputRequiredRefusal(round(inputRequests), declared);
    return refusal && { code: refusal.code, missing: (refusal.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities };
  };

  it('adds the server identity, in a JSON-RPC response', () => {
    assert.deepEqual(answerTo({ ok: true, result: round({ q: form }) }, { elicitation: {} }, 1), {
      status: 200,
      code: undefined,
      body: { result: { resultType: 'input_required', inputRequests: { q: form }, requestState: 's', _meta: { [SERVER_INFO]: info } }, jsonrpc: '2.0', id: 1 },
    });
  });

  it('lets out only what the declared capabilities cover, as the SDK reads them', () => {
    assert.equal(gate({ q: form }, { elicitation: {} }), undefined, 'a bare elicitation means form');
    assert.equal(gate({ q: form }, { elicitation: { form: {} } }), undefined);
    assert.equal(gate({ q: form }, { elicitation: true }), undefined, 'a declaration that is not an object declares every mode');
    assert.deepEqual(gate({ q: form }, { elicitation: { url: {} } }), { code: -32021, missing: { elicitation: { form: {} } } }, 'url only');
    assert.equal(gate({ q: url }, { elicitation: { url: {} } }), undefined);
    assert.deepEqual(gate({ q: url }, { elicitation: {} }), { code: -32021, missing: { elicitation: { url: {} } } });
    assert.equal(gate({ q: sample }, { sampling: {} }), undefined);
    assert.deepEqual(gate({ q: sampleTools }, { sampling: {} }), { code: -32021, missing: { sampling: { tools: {} } } });
    assert.equal(gate({ q: sampleTools }, { sampling: { tools: {} } }), undefined);
    assert.equal(gate({ q: roots }, { roots: {} }), undefined);
    assert.deepEqual(gate({ q: roots }, {}), { code: -32021, missing: { roots: {} } });
    assert.deepEqual(gate({ a: form, b: roots }, { elicitation: {} }), { code: -32021, missing: { roots: {} } }, 'every request must be covered');
  });

  it('answers an uncovered round with -32021 and HTTP 400, naming the request', () => {
    const a = answerTo({ ok: true, result: round({ q: roots }) }, {});
    assert.equal(a.status, 400);
    assert.deepEqual(a.body['error'], {
      code: -32021,
      message: "Cannot request input 'q' (roots/list): the request's client capabilities do not declare the required capability",
      data: { requiredCapabilities: { roots: {} } },
    });
  });

  it('refuses, as the SDK does, rounds no revision defines', () => {
    assert.equal(gate({ q: { method: 'ping' } }, { elicitation: {}, sampling: {}, roots: {} })?.code, -32603, 'not an input request');
    assert.equal(gate({ q: 'x' }, { elicitation: {} })?.code, -32603);
    assert.equal(gate({ q: { method: 'sampling/createMessage', params: null } }, { sampling: {} })?.code, -32603, 'params of null');
    assert.equal(inputRequiredRefusal({ resultType: 'input_required', inputRequests: {} }, {})?.code, -32603, 'neither inputRequests nor requestState');
    assert.equal(inputRequiredRefusal({ resultType: 'input_required', requestState: 's' }, {}), undefined, 'a requestState alone');
  });
});

describe('fast lane: the record of a request the official front serves', () => {
  /** The web Request the SDK's node adapter made of `req`, as the front links it, and the context the handler gets. */
  const served = (req: object) => {
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST' });
    linkWebRequest(req, request);
    return (id: number) => ({ http: { req: request }, mcpReq: { id } }) as unknown as ServerContext;
  };

  it("carries the request's record and leaves its authInfo as the auth gate made it, or absent", () => {
    const req: { auth?: AuthInfo } = { auth: { token: '', clientId: 'c', scopes: ['s'], extra: { principal: 'alice' } } };
    const record = new FrontRequest('default', 'alice', { method: 'tools/call' }, {});
    recordFrontRequest(req, record);
    const handlerOf = served(req);
    assert.deepEqual(req.auth, { token: '', clientId: 'c', scopes: ['s'], extra: { principal: 'alice' } });
    assert.equal(recordOfContext(handlerOf(1)), record);
    const bare: { auth?: AuthInfo } = {};
    recordFrontRequest(bare, record);
    assert.equal(recordOfContext(served(bare)(2)), record);
    assert.equal('auth' in bare, false, 'an unauthenticated request is given no authInfo');
    assert.equal(recordOfContext({ mcpReq: { id: 1 } } as unknown as ServerContext), undefined, 'a request the front did not link');
  });
});
