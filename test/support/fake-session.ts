// An in-memory stand-in for a LegacySession, for unit tests of the pool and the bridge: the test
// plays the legacy server, deciding when a call answers and what the server asks mid-call. It
// implements the surface the bridge uses (request, holder, closed, close, negotiatedVersion).
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { LegacySession, JsonObject, ServerRequest } from '../../src/upstream/session.js';

export interface FakeCall {
  method: string;
  params: JsonObject | undefined;
  signal: AbortSignal | undefined;
  onprogress: ((p: JsonObject) => void) | undefined;
  resolve(result: JsonObject): void;
  reject(err: unknown): void;
}

let seq = 0;

export class FakeSession {
  readonly id = `fake-${++seq}`;
  holder: LegacySession['holder'];
  closed = false;
  closeReason = '';
  negotiatedVersion = '2025-11-25';
  readonly calls: FakeCall[] = [];
  private nextServerId = 0;

  constructor(readonly capabilities: object = {}) {}

  asSession(): LegacySession {
    return this as unknown as LegacySession;
  }

  request(method: string, params: JsonObject | undefined, opts: { signal?: AbortSignal; onprogress?: (p: JsonObject) => void } = {}): Promise<JsonObject> {
    return new Promise((resolve, reject) => {
      const call: FakeCall = { method, params, signal: opts.signal, onprogress: opts.onprogress, resolve, reject };
      opts.signal?.addEventListener('abort', () => reject(new McpError(-32001, 'Request cancelled')), { once: true });
      this.calls.push(call);
    });
  }

  /** The legacy server sends a request mid-call; resolves with the answer the holder gives. */
  ask(method: string, params?: JsonObject): { answer: Promise<JsonObject>; withdraw(): void } {
    const withdraw = new AbortController();
    const request: ServerRequest = { id: this.nextServerId++, method, params };
    if (!this.holder) throw new Error('nobody holds this session');
    return { answer: this.holder.onServerRequest(request, withdraw.signal), withdraw: () => withdraw.abort('server timeout') };
  }

  async close(reason: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    for (const c of this.calls) c.reject(new McpError(-32000, 'Connection closed'));
  }

  /** The latest call sent on this session. */
  get lastCall(): FakeCall {
    const c = this.calls.at(-1);
    if (!c) throw new Error('no call was sent');
    return c;
  }
}

/** Lets pending promise callbacks (and zero-length timers) run. */
export const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));


export { until } from './wait.js';
