import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { INPUT_METHODS, inputKey, isInputMethod, toInputRequest } from '../../src/protocol/input-requests.js';

describe('isInputMethod', () => {
  it('accepts exactly the three legacy server->client request methods', () => {
    assert.deepEqual([...INPUT_METHODS].sort(), ['elicitation/create', 'roots/list', 'sampling/createMessage']);
    for (const m of INPUT_METHODS) assert.equal(isInputMethod(m), true, m);
    for (const m of ['ping', 'tools/call', 'elicitation', 'roots/list ', 'ROOTS/LIST', '']) assert.equal(isInputMethod(m), false, m);
  });
});

describe('inputKey', () => {
  it('is a readable prefix plus the sequence number', () => {
    assert.equal(inputKey('elicitation/create', 1), 'elicitation-1');
    assert.equal(inputKey('sampling/createMessage', 2), 'sampling-2');
    assert.equal(inputKey('roots/list', 3), 'roots-3');
  });

  it('is unique across methods and sequence numbers', () => {
    const keys = new Set<string>();
    for (const m of INPUT_METHODS) for (let seq = 1; seq <= 20; seq++) keys.add(inputKey(m, seq));
    assert.equal(keys.size, INPUT_METHODS.length * 20);
  });
});

describe('toInputRequest', () => {
  it('strips _meta, task and elicitationId from elicitation/create', () => {
    const params = {
      mode: 'url',
      message: 'Please sign in',
      url: 'https://example.com/auth',
      elicitationId: 'abc',
      task: { ttl: 1000 },
      _meta: { progressToken: 1, 'io.modelcontextprotocol/related-task': { taskId: 't' } },
    };
    assert.deepEqual(toInputRequest('elicitation/create', params), {
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Please sign in', url: 'https://example.com/auth' },
    });
  });

  it('keeps everything else of a form elicitation', () => {
    const params = { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } };
    assert.deepEqual(toInputRequest('elicitation/create', params), { method: 'elicitation/create', params });
  });

  it('strips legacy-only fields from sampling/createMessage and keeps the rest', () => {
    const params = {
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' }, _meta: { keep: true } }],
      maxTokens: 100,
      systemPrompt: 'be nice',
      tools: [{ name: 't', inputSchema: { type: 'object' } }],
      task: {},
      _meta: { progressToken: 'p' },
    };
    const out = toInputRequest('sampling/createMessage', params);
    assert.deepEqual(out, {
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' }, _meta: { keep: true } }],
        maxTokens: 100,
        systemPrompt: 'be nice',
        tools: [{ name: 't', inputSchema: { type: 'object' } }],
      },
    });
  });

  it('does not mutate the legacy params', () => {
    const params = { message: 'x', _meta: { a: 1 }, task: {}, elicitationId: 'e' };
    const copy = structuredClone(params);
    toInputRequest('elicitation/create', params);
    assert.deepEqual(params, copy);
  });

  it('gives empty params when the legacy request had none', () => {
    assert.deepEqual(toInputRequest('elicitation/create', undefined), { method: 'elicitation/create', params: {} });
    assert.deepEqual(toInputRequest('sampling/createMessage', { _meta: {} }), { method: 'sampling/createMessage', params: {} });
  });

  it('shapes roots/list as a bare method without params', () => {
    const out = toInputRequest('roots/list', { _meta: { progressToken: 1 } });
    assert.deepEqual(out, { method: 'roots/list' });
    assert.equal('params' in out, false);
    assert.deepEqual(toInputRequest('roots/list', undefined), { method: 'roots/list' });
  });

  it('round-trips through JSON', () => {
    const out = toInputRequest('elicitation/create', { message: 'm', requestedSchema: { type: 'object', properties: {} } });
    assert.deepEqual(JSON.parse(JSON.stringify(out)), out);
  });
});
