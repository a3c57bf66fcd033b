import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asMessage, isRequest, parseMessage } from '../../src/upstream/transport/jsonrpc-message.js';

describe('asMessage', () => {
  it('accepts requests, notifications, results and errors', () => {
    for (const m of [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'no' } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } },
    ]) {
      assert.equal(asMessage(m), m);
    }
  });

  it('rejects anything else, naming what it got', () => {
    for (const m of [
      null,
      'text',
      [{ jsonrpc: '2.0', id: 1, result: {} }],
      { id: 1, result: {} },
      { jsonrpc: '1.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 1.5, result: {} },
      { jsonrpc: '2.0', id: null, result: {} },
      { jsonrpc: '2.0', id: {}, method: 'ping' },
      { jsonrpc: '2.0', id: 1, error: 'bad' },
      { jsonrpc: '2.0', method: 7 },
    ]) {
      assert.throws(() => asMessage(m), /not a JSON-RPC 2.0 message/, JSON.stringify(m));
    }
  });
});

describe('isRequest', () => {
  it('is true only for messages with a method and an id', () => {
    assert.equal(isRequest({ jsonrpc: '2.0', id: 0, method: 'ping' }), true);
    assert.equal(isRequest({ jsonrpc: '2.0', method: 'notifications/initialized' }), false);
    assert.equal(isRequest({ jsonrpc: '2.0', id: 0, result: {} }), false);
  });
});

describe('parseMessage', () => {
  it('gives the message, or reports text that is not JSON or not a message and gives undefined', () => {
    const errors: string[] = [];
    const onError = (e: Error) => errors.push(e.message);
    assert.deepEqual(parseMessage('{"jsonrpc":"2.0","id":1,"result":{}}', onError), { jsonrpc: '2.0', id: 1, result: {} });
    assert.equal(parseMessage('{"jsonrpc":"2.0","id":1', onError), undefined);
    assert.equal(parseMessage('{"id":1,"result":{}}', onError), undefined);
    assert.equal(errors.length, 2);
    assert.match(errors[1]!, /not a JSON-RPC 2.0 message/);
    assert.equal(parseMessage('nope', undefined), undefined, 'no listener: still no throw');
  });
});
