import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statusFor } from '../../src/protocol/http-status.js';
import { invalidRetryParams } from '../../src/protocol/retry-params.js';
import { createChangeRelay } from '../../src/front/changes.js';
import { ToolSchemas } from '../../src/upstream/tool-schemas.js';

describe('statusFor', () => {
  it('maps method-not-found to 404 and missing capability to 400', () => {
    assert.equal(statusFor(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'x' } })), 404);
    assert.equal(statusFor(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'x' } })), 400);
  });
  it('leaves other errors, results and garbage alone', () => {
    assert.equal(statusFor(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' } })), undefined);
    assert.equal(statusFor(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })), undefined);
    assert.equal(statusFor('not json'), undefined);
  });
});

describe('invalidRetryParams', () => {
  const call = (params: unknown, method = 'tools/call') => invalidRetryParams({ jsonrpc: '2.0', id: 1, method, params });
  it('rejects non-object inputResponses on interactive methods', () => {
    for (const bad of ['yes', 1, null, [], true]) assert.equal(call({ name: 't', inputResponses: bad })?.code, -32602, JSON.stringify(bad));
    assert.match(call({ name: 't', inputResponses: [] })!.message, /inputResponses must be an object/);
  });
  it("rejects tasks/update's non-object inputResponses too (the SDK would lift them and ack an empty update)", () => {
    for (const bad of ['yes', null, [], 3]) assert.equal(call({ taskId: 't', inputResponses: bad }, 'tasks/update')?.code, -32602, JSON.stringify(bad));
    assert.equal(call({ taskId: 't', inputResponses: {} }, 'tasks/update'), undefined);
    assert.equal(call({ taskId: 't', inputResponses: 'x' }, 'tasks/get'), undefined, 'only tasks/update carries answers');
  });
  it('rejects a non-string requestState', () => {
    assert.match(call({ uri: 'x', requestState: 42 }, 'resources/read')!.message, /requestState is malformed/);
  });
  it('accepts well-formed retries, first calls, and other methods', () => {
    assert.equal(call({ name: 't', inputResponses: {}, requestState: 's' }), undefined);
    assert.equal(call({ name: 't' }), undefined);
    assert.equal(call({ inputResponses: 'x' }, 'tools/list'), undefined);
    assert.equal(invalidRetryParams(undefined), undefined);
    assert.equal(invalidRetryParams('x'), undefined);
  });
});

describe('createChangeRelay', () => {
  function notifier() {
    const calls: string[] = [];
    return {
      calls,
      toolsChanged: () => void calls.push('tools'),
      promptsChanged: () => void calls.push('prompts'),
      resourcesChanged: () => void calls.push('resources'),
      resourceUpdated: (uri: string) => void calls.push(`updated ${uri}`),
    };
  }
  it('coalesces bursts of list_changed and passes resource updates at once', async () => {
    const n = notifier();
    const relay = createChangeRelay(n, 10);
    for (let i = 0; i < 5; i++) relay('notifications/tools/list_changed', undefined);
    relay('notifications/prompts/list_changed', undefined);
    relay('notifications/resources/updated', { uri: 'file:///a' });
    relay('notifications/resources/updated', { uri: 42 } as never);
    relay('notifications/unknown', undefined);
    assert.deepEqual(n.calls, ['updated file:///a']);
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(n.calls.sort(), ['prompts', 'tools', 'updated file:///a']);
    relay('notifications/tools/list_changed', undefined);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(n.calls.filter((c) => c === 'tools').length, 2, 'a later change is sent again');
  });
});

describe('ToolSchemas', () => {
  const page = (names: string[], nextCursor?: string) => ({
    tools: names.map((name) => ({ name, inputSchema: { type: 'object', title: name } })),
    ...(nextCursor ? { nextCursor } : {}),
  });
  it('learns from listings that pass through', () => {
    const t = new ToolSchemas();
    t.observe(page(['a']));
    assert.deepEqual(t.get('a'), { type: 'object', title: 'a' });
    assert.equal(t.get('b'), undefined);
  });
  it('lists every page once per capability set when a tool is unknown', async () => {
    const t = new ToolSchemas();
    const cursors: Array<string | undefined> = [];
    const list = async (cursor: string | undefined) => {
      cursors.push(cursor);
      return cursor === undefined ? page(['a'], 'p2') : page(['b']);
    };
    assert.deepEqual(await t.lookup('b', 'none', list), { type: 'object', title: 'b' });
    assert.deepEqual(cursors, [undefined, 'p2']);
    assert.equal(await t.lookup('zzz', 'none', list), undefined);
    assert.equal(cursors.length, 2, 'no second listing for the same capability set');
    await t.lookup('zzz', 'elicitation(form)', list);
    assert.equal(cursors.length, 4, 'another capability set may list other tools');
  });
  it('forgets everything on a change', async () => {
    const t = new ToolSchemas();
    t.observe(page(['a']));
    t.invalidate();
    assert.equal(t.get('a'), undefined);
  });
});

import { checkNameHeader, checkTaskNameHeader, quoted } from '../../src/protocol/name-header.js';

describe('checkNameHeader', () => {
  it('requires Mcp-Name to match the name or URI of the three named methods', () => {
    assert.equal(checkNameHeader('tools/call', { name: 'echo' }, 'echo'), undefined);
    assert.equal(checkNameHeader('resources/read', { uri: 'file:///a' }, 'file:///a'), undefined);
    assert.equal(checkNameHeader('tools/list', {}, undefined), undefined);
    assert.match(checkNameHeader('tools/call', { name: 'echo' }, undefined)!.message, /required for tools\/call/);
    assert.match(checkNameHeader('prompts/get', { name: 'p' }, 'q')!.message, /'q' does not match body value 'p'/);
  });
  it('decodes the Base64 form and rejects a malformed one', () => {
    const enc = `=?base64?${Buffer.from('naïve tool').toString('base64')}?=`;
    assert.equal(checkNameHeader('tools/call', { name: 'naïve tool' }, enc), undefined);
    assert.equal(checkNameHeader('tools/call', { name: 'x' }, '=?base64?eA?=')?.code, -32020, 'unpadded is not the canonical form');
  });
  it('quotes only the start of a long value', () => {
    const long = 'x'.repeat(1_000_000);
    const message = checkNameHeader('tools/call', { name: long }, `y${long}`)!.message;
    assert.ok(message.length < 200, `${message.length} characters`);
    assert.equal(quoted('short'), 'short');
  });
});

describe('checkTaskNameHeader', () => {
  it("requires a task method's Mcp-Name to equal params.taskId, quoting neither in full", () => {
    assert.equal(checkTaskNameHeader('tasks/get', { taskId: 'abc' }, 'abc'), undefined);
    assert.equal(checkTaskNameHeader('tools/call', { name: 'a' }, 'b'), undefined, 'the other methods are checked elsewhere');
    assert.equal(checkTaskNameHeader('tasks/cancel', {}, 'b'), undefined, 'no taskId: the params check answers');
    assert.match(checkTaskNameHeader('tasks/update', { taskId: 'abc' }, undefined)!.message, /required for tasks\/update/);
    const id = 't'.repeat(1_000_000);
    const wrong = checkTaskNameHeader('tasks/get', { taskId: id }, `u${id}`)!;
    assert.equal(wrong.code, -32020);
    assert.ok(wrong.message.length < 200, `${wrong.message.length} characters`);
  });
});
