import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJsonBody, MAX_JSON_DEPTH, nestingExceeds, valueNestingExceeds } from '../../src/protocol/json-body.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('decodeJsonBody', () => {
  it('parses UTF-8 JSON with or without a utf-8 charset', () => {
    for (const type of ['application/json', 'Application/JSON; charset=UTF-8', 'application/json;charset="utf-8"']) {
      assert.deepEqual(decodeJsonBody(bytes('{"a":"é"}'), type), { ok: true, value: { a: 'é' } }, type);
    }
  });
  it('refuses other media types and charsets, invalid UTF-8, bad JSON and deep nesting', () => {
    const refused = (b: Uint8Array, type: string | undefined) => {
      const r = decodeJsonBody(b, type);
      assert.ok(!r.ok);
      return [r.status, r.code];
    };
    assert.deepEqual(refused(bytes('{}'), undefined), [415, -32600]);
    assert.deepEqual(refused(bytes('{}'), 'text/plain; a=application/json'), [415, -32600]);
    assert.deepEqual(refused(bytes('{}'), 'application/json; charset=utf-16'), [415, -32600]);
    assert.deepEqual(refused(Uint8Array.from([0x7b, 0xff, 0x7d]), 'application/json'), [400, -32700]);
    assert.deepEqual(refused(bytes('{"a":'), 'application/json'), [400, -32700]);
    assert.deepEqual(refused(bytes(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`), 'application/json'), [400, -32600]);
  });
});

describe('nestingExceeds', () => {
  it('counts arrays and objects, not brackets in strings or after escaped quotes', () => {
    assert.equal(nestingExceeds('[[{"a":[1]}]]', 4), false);
    assert.equal(nestingExceeds('[[{"a":[1]}]]', 3), true);
    assert.equal(nestingExceeds('["[[[[", "\\"[[[["]', 1), false);
    assert.equal(nestingExceeds('[] [] [] []', 1), false);
  });
});

describe('valueNestingExceeds', () => {
  it('bounds a parsed value without recursion, however deep', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(valueNestingExceeds(deep, MAX_JSON_DEPTH), true);
    assert.equal(valueNestingExceeds({ a: [{ b: 1 }], c: 'x' }, 3), false);
    assert.equal(valueNestingExceeds({ a: [{ b: {} }] }, 3), true);
  });
});
