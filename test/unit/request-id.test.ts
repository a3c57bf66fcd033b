import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { requestIdOf } from '../../src/protocol/request-id.js';

describe('requestIdOf', () => {
  it('reads a string or number id of one request', () => {
    assert.equal(requestIdOf(Buffer.from('{"jsonrpc":"2.0","id":42,"method":"x"}')), 42);
    assert.equal(requestIdOf(Buffer.from('{"jsonrpc":"2.0","id":"a-1","method":"x"}')), 'a-1');
  });
  it('gives null for no body, bad JSON, a batch, a notification or an id of another type', () => {
    for (const body of [
      undefined,
      Buffer.alloc(0),
      Buffer.from('{not json'),
      Buffer.from('[{"id":1}]'),
      Buffer.from('{"method":"n"}'),
      Buffer.from('{"id":{"x":1}}'),
      Buffer.from('null'),
    ]) {
      assert.equal(requestIdOf(body), null);
    }
  });
});
