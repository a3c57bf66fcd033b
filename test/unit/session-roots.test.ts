// A legacy session that declares roots.listChanged and whose server heard other roots during a
// call (the caller's, not the session's) tells the server its roots changed once no call runs,
// so that the server asks again and the next caller does not read the previous caller's roots.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ROOTS_CAPABILITY } from '../../src/protocol/capabilities.js';
import type { JsonObject, Root } from '../../src/protocol/json.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { LegacySession } from '../../src/upstream/session.js';

class FakeTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  readonly sent: JSONRPCMessage[] = [];
  async start(): Promise<void> {}
  async send(m: JSONRPCMessage): Promise<void> {
    this.sent.push(m);
    if ('method' in m && m.method === 'initialize' && 'id' in m) {
      const result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fake', version: '1' } };
      queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id: m.id, result }));
    }
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  lastRequest(method: string): { id: number } | undefined {
    return this.sent.filter((m) => 'method' in m && m.method === method && 'id' in m).pop() as { id: number } | undefined;
  }
  notified(method: string): boolean {
    return this.sent.some((m) => 'method' in m && m.method === method && !('id' in m));
  }
}

const flush = () => new Promise((r) => setImmediate(r));
const SERVED: Root[] = [{ uri: 'file:///served' }];

/** One call whose server asks roots/list during it and gets `given` from the caller. */
async function callGiving(given: Root[]): Promise<FakeTransport> {
  const transport = new FakeTransport();
  const hooks = { answerLocally: async () => ({ roots: SERVED }), onChange() {}, onClosed() {}, servedRoots: SERVED };
  const session = await LegacySession.connect(transport, { roots: ROOTS_CAPABILITY }, hooks, createLogger('error'), 5000);
  const holder = { onServerRequest: async (): Promise<JsonObject> => ({ roots: given }), onLog() {} };
  const call = session.request('tools/call', { name: 't', arguments: {} }, { holder, untied: true });
  await flush();
  transport.onmessage?.({ jsonrpc: '2.0', id: 900, method: 'roots/list' });
  await flush();
  assert.equal(transport.notified('notifications/roots/list_changed'), false, 'not while the call runs');
  transport.onmessage?.({ jsonrpc: '2.0', id: transport.lastRequest('tools/call')!.id, result: { content: [] } });
  await call;
  await flush();
  return transport;
}

describe('LegacySession: roots a call gave', () => {
  it('declares roots with listChanged', async () => {
    const t = await callGiving(SERVED);
    const init = t.sent.find((m) => 'method' in m && m.method === 'initialize') as unknown as { params: { capabilities: JsonObject } };
    assert.deepEqual(init.params.capabilities['roots'], { listChanged: true });
  });

  it('tells the server its roots changed once the call that gave other roots is over', async () => {
    assert.equal((await callGiving([{ uri: 'file:///caller' }])).notified('notifications/roots/list_changed'), true);
  });

  it('says nothing when the call gave the roots the session serves', async () => {
    assert.equal((await callGiving(SERVED)).notified('notifications/roots/list_changed'), false);
  });
});
