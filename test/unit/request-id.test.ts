import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { requestIdOf } from '../../src/protocol/errors.js';

describe('requestIdOf', () => {
  it('reads a string or number id of one request', () => {
    assert.equal(requestIdOf({ jsonrpc: '2.0', id: 42, method: 'x' }), 42);
    assert.equal(requestIdOf({ jsonrpc: '2.0', id: 'a-1', method: 'x' }), 'a-1');
  });
  it('gives null for no body, a batch, a notification, a non-object or an id of another type', () => {
    for (const body of [undefined, null, 'text', 7, [{ id: 1 }], { method: 'n' }, { id: { x: 1 } }]) {
      assert.equal(requestIdOf(body), null);
    }
  });
});
