// The comparison of a primary and a candidate outcome: per-method views, ignore paths, errors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseIgnorePath } from '../../src/config/shadow.js';
import { compareOutcomes, comparableView, pathText, sameJson, type SideOutcome } from '../../src/shadow/compare.js';

const result = (r: Record<string, unknown>): SideOutcome => ({ kind: 'result', result: r });
const text = (t: string) => [{ type: 'text', text: t }];
const paths = (d: ReturnType<typeof compareOutcomes>) => d.map((x) => `${x.path} ${x.kind}`);

describe('compareOutcomes', () => {
  it('compares content, structuredContent and isError of tools/call, not the envelope', () => {
    const legacy = result({ content: text('6') });
    const modern = result({ content: text('6'), isError: false, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x' } } });
    assert.deepEqual(compareOutcomes('tools/call', legacy, modern, []), []);
    assert.deepEqual(paths(compareOutcomes('tools/call', legacy, result({ content: text('6.0') }), [])), ['content[0].text changed']);
    assert.deepEqual(paths(compareOutcomes('tools/call', legacy, result({ content: text('6'), isError: true }), [])), ['isError changed']);
    assert.deepEqual(paths(compareOutcomes('tools/call', legacy, result({ content: [...text('6'), ...text('more')] }), [])), ['content[1] extra']);
    assert.deepEqual(paths(compareOutcomes('tools/call', result({ content: text('6'), structuredContent: { n: 6 } }), legacy, [])), [
      'structuredContent missing',
    ]);
  });

  it('keeps the values of a difference for the caller to drop', () => {
    const [d] = compareOutcomes('tools/call', result({ content: text('1') }), result({ content: text('1.5') }), []);
    assert.deepEqual(d, { path: 'content[0].text', kind: 'changed', primary: '1', candidate: '1.5' });
  });

  it('ignores volatile fields by path, with wildcards, and everything under them', () => {
    const a = result({ content: text('at 1'), structuredContent: { value: 1, generatedAt: '2026-01-01', meta: { seq: 1 } } });
    const b = result({ content: text('at 2'), structuredContent: { value: 1, generatedAt: '2026-01-02', meta: { seq: 2 } } });
    assert.deepEqual(paths(compareOutcomes('tools/call', a, b, [])), [
      'content[0].text changed',
      'structuredContent.generatedAt changed',
      'structuredContent.meta.seq changed',
    ]);
    const ignore = ['content[*].text', 'structuredContent.generatedAt', '$.structuredContent.meta'].map(parseIgnorePath);
    assert.deepEqual(compareOutcomes('tools/call', a, b, ignore), []);
    assert.deepEqual(
      compareOutcomes('tools/call', a, result({ content: text('x'), structuredContent: { value: 1 } }), ignore),
      [],
      'an ignored field may also be absent',
    );
  });

  it('compares list items by name, dropping legacy task support, in any order', () => {
    const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, inputSchema: { type: 'object' }, ...extra });
    const legacy = result({ tools: [tool('a', { execution: { taskSupport: 'forbidden' } }), tool('b')], nextCursor: 'p2' });
    assert.deepEqual(compareOutcomes('tools/list', legacy, result({ tools: [tool('b'), tool('a')], ttlMs: 0 }), []), []);
    const changed = result({ tools: [tool('a', { inputSchema: { type: 'object', required: ['x'] } }), tool('c')] });
    assert.deepEqual(paths(compareOutcomes('tools/list', legacy, changed, [])), ['tools.a.inputSchema.required extra', 'tools.b missing', 'tools.c extra']);
    assert.deepEqual(
      paths(
        compareOutcomes('tools/list', legacy, result({ tools: [tool('a', { description: 'new' }), tool('b')] }), ['tools[*].description'].map(parseIgnorePath)),
      ),
      [],
    );
    assert.deepEqual(comparableView('resources/list', { resources: [{ uri: 'u://1', name: 'one' }] }), {
      resources: { 'u://1': { uri: 'u://1', name: 'one' } },
    });
  });

  it('compares error codes, and an error against a result', () => {
    const err = (code: number): SideOutcome => ({ kind: 'error', code });
    assert.deepEqual(compareOutcomes('resources/read', err(-32602), err(-32602), []), []);
    assert.deepEqual(compareOutcomes('resources/read', err(-32602), err(-32603), []), [
      { path: 'error.code', kind: 'changed', primary: -32602, candidate: -32603 },
    ]);
    assert.deepEqual(compareOutcomes('prompts/get', err(-32602), result({ messages: [] }), []), [
      { path: 'outcome', kind: 'changed', primary: 'error -32602', candidate: 'result' },
    ]);
  });
});

describe('compare helpers', () => {
  it('writes paths readably', () => {
    assert.equal(pathText(['tools', 'get-sum', 'inputSchema']), 'tools.get-sum.inputSchema');
    assert.equal(pathText(['resources', 'file:///a b', 'name']), 'resources["file:///a b"].name');
    assert.equal(pathText(['content', 0, 'text']), 'content[0].text');
  });

  it('compares JSON structurally', () => {
    assert.ok(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }));
    assert.ok(sameJson({ a: 1, b: undefined }, { a: 1 }));
    assert.ok(!sameJson([1, 2], [2, 1]));
    assert.ok(!sameJson({ a: 1 }, { a: '1' }));
  });
});
