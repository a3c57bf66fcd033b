// The typed "stream gone" error: socket-level failures are classified into it at the transport,
// other errors pass through, and a transport the proxy does not own can be wrapped.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { classifyErrors, classifyNetworkError, StreamGoneError } from '../../src/upstream/transport/stream-gone.js';
import { createSseTransport } from '../../src/upstream/transport/sse-transport.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('classifyNetworkError', () => {
  it('turns socket failures into StreamGoneError, keeping the cause', () => {
    const reset = withCode('read ECONNRESET', 'ECONNRESET');
    const gone = classifyNetworkError(reset);
    assert.ok(gone instanceof StreamGoneError);
    assert.equal(gone.message, 'read ECONNRESET');
    assert.equal(gone.cause, reset);
  });

  it('looks through causes (fetch wraps the socket error)', () => {
    const fetchFailed = new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED') });
    assert.ok(classifyNetworkError(fetchFailed) instanceof StreamGoneError);
  });

  it('leaves other errors alone, whatever their text says', () => {
    const parse = new SyntaxError('Unexpected token ECONNRESET in JSON');
    assert.equal(classifyNetworkError(parse), parse);
    const http = withCode('Error POSTing to endpoint: 500', 'HTTP_500');
    assert.equal(classifyNetworkError(http), http);
  });
});

describe('classifyErrors', () => {
  it('classifies what a foreign transport reports before its owner sees it', () => {
    const transport = { start: async () => {}, send: async () => {}, close: async () => {} } as Transport;
    classifyErrors(transport, classifyNetworkError);
    const seen: Error[] = [];
    transport.onerror = (err) => seen.push(err);
    transport.onerror(withCode('socket hang up', 'ECONNRESET'));
    transport.onerror(new Error('other'));
    assert.ok(seen[0] instanceof StreamGoneError);
    assert.equal(seen[1]!.message, 'other');
    assert.ok(!(seen[1] instanceof StreamGoneError));
  });

  it('treats every SSE stream error of the HTTP+SSE transport as the stream being gone', () => {
    const transport = createSseTransport(new URL('http://127.0.0.1:1/sse'), {});
    const seen: Error[] = [];
    transport.onerror = (err) => seen.push(err);
    transport.onerror(new SseError(undefined, 'stream ended', undefined as never));
    assert.ok(seen[0] instanceof StreamGoneError);
  });
});
