// The legacy server's requests are answered from the transport's message hook (upstream/
// server-requests.ts), not by the v1 SDK's request handler: the answer or the error goes back on
// the transport, nothing goes back for a request the server withdrew (id 0 included, which the SDK
// ignored) or after the session closed, and ping is still the SDK's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, ServerRequest } from '../../src/protocol/json.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { LegacySession, type SessionHolder } from '../../src/upstream/session.js';

class FakeTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (err: Error) => void;
  readonly sent: JSONRPCMessage[] = [];
  async start(): Promise<void> {}
  async send(m: JSONRPCMessage): Promise<void> {
    this.sent.push(m);
    if ('method' in m && m.method === 'initialize' && 'id' in m) {
      const result = { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'fake', version: '1' } };
      queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id: m.id, result }));
    }
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  /** What the session sent back for request `id` (a response or an error), if anything. */
  answerTo(id: number): JSONRPCMessage | undefined {
    return this.sent.find((m) => 'id' in m && m.id === id && !('method' in m));
  }
}

/** Holds every request it gets until the test settles it. */
class Holder implements SessionHolder {
  readonly open = new Map<number, { resolve(r: JsonObject): void; reject(e: unknown): void; withdrawn: { aborted: boolean } }>();
  onServerRequest(request: ServerRequest, withdrawn: { aborted: boolean }): Promise<JsonObject> {
    return new Promise((resolve, reject) => this.open.set(request.id as number, { resolve, reject, withdrawn }));
  }
  onLog(): void {}
}

const flush = () => new Promise((r) => setImmediate(r));

async function connected(): Promise<{ session: LegacySession; transport: FakeTransport; holder: Holder }> {
  const transport = new FakeTransport();
  const hooks = { answerLocally: async () => ({}), onChange() {}, onClosed() {} };
  const session = await LegacySession.connect(transport, { elicitation: { form: {} } }, hooks, createLogger('error'), 5000);
  const holder = new Holder();
  session.holder = holder;
  return { session, transport, holder };
}

const elicit = (id: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'elicitation/create',
  params: { message: 'name?', requestedSchema: { type: 'object', properties: {} } },
});

describe('legacy session: the server requests', () => {
  it('sends the holder result as the response, and what it throws as an error response', async () => {
    const { transport, holder } = await connected();
    transport.onmessage?.(elicit(0));
    transport.onmessage?.(elicit(1));
    transport.onmessage?.(elicit(2));
    assert.equal(holder.open.size, 3, 'handed over at once');
    holder.open.get(0)!.resolve({ action: 'accept', content: { name: 'x' } });
    holder.open.get(1)!.reject(new McpError(-1, 'declined by policy', { why: 'test' }));
    holder.open.get(2)!.reject(new Error('boom'));
    await flush();
    assert.deepEqual(transport.answerTo(0), { jsonrpc: '2.0', id: 0, result: { action: 'accept', content: { name: 'x' } } });
    assert.deepEqual(transport.answerTo(1), { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'MCP error -1: declined by policy', data: { why: 'test' } } });
    assert.deepEqual(transport.answerTo(2), { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'boom' } });
  });

  it('sends nothing for a request the server withdrew, id 0 included, and tells the holder', async () => {
    const { transport, holder } = await connected();
    for (const id of [0, 5]) {
      transport.onmessage?.(elicit(id));
      transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'timeout' } });
      await flush();
      const open = holder.open.get(id)!;
      assert.equal(open.withdrawn.aborted, true, `request ${id} withdrawn`);
      open.resolve({ action: 'cancel' });
      await flush();
      assert.equal(transport.answerTo(id), undefined, `no answer to withdrawn request ${id}`);
    }
    // The id may be used again once its request is over.
    transport.onmessage?.(elicit(0));
    holder.open.get(0)!.resolve({ action: 'decline' });
    await flush();
    assert.deepEqual(transport.answerTo(0), { jsonrpc: '2.0', id: 0, result: { action: 'decline' } });
  });

  it('withdraws the open requests when the session closes', async () => {
    const { session, transport, holder } = await connected();
    transport.onmessage?.(elicit(3));
    await session.close('test');
    assert.equal(holder.open.get(3)!.withdrawn.aborted, true);
    holder.open.get(3)!.resolve({ action: 'cancel' });
    await flush();
    assert.equal(transport.answerTo(3), undefined);
  });

  it('leaves ping to the SDK', async () => {
    const { transport, holder } = await connected();
    transport.onmessage?.({ jsonrpc: '2.0', id: 9, method: 'ping' });
    await flush();
    assert.equal(holder.open.size, 0);
    assert.deepEqual(transport.answerTo(9), { jsonrpc: '2.0', id: 9, result: {} });
  });

  it('cancels a call through its AbortSignal: notifications/cancelled, then a rejection', async () => {
    const { session, transport } = await connected();
    const abort = new AbortController();
    const call = transport.sent.length;
    const result = session.request('tools/call', { name: 'ask' }, { signal: abort.signal });
    const sent = transport.sent[call] as { id: number; method: string };
    assert.equal(sent.method, 'tools/call');
    abort.abort('the client went away');
    await assert.rejects(result, /the client went away/);
    assert.deepEqual(transport.sent.at(-1), {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: sent.id, reason: 'the client went away' },
    });
  });
});
