// An in-memory stand-in for a LegacySession, for unit tests of the pool and the bridge and for the
// bench: the caller plays the legacy server, deciding when a call answers and what the server asks
// mid-call. It implements the pool's PooledSession and the bridge's BridgeSession.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { BridgeSession, SessionHolder, SessionLease } from '../../src/bridge/ports.js';
import { LEGACY } from '../../src/protocol/errors.js';
import type { JsonObject, ServerRequest } from '../../src/protocol/json.js';
import type { PooledSession } from '../../src/upstream/pool/pool.js';

export interface FakeCall {
  method: string;
  params: JsonObject | undefined;
  signal: AbortSignal | undefined;
  onprogress: ((p: JsonObject) => void) | undefined;
  resolve(result: JsonObject): void;
  reject(err: unknown): void;
}

/** Plays the legacy server for each call: answer it (or not) when it arrives. */
export type FakeServer = (call: FakeCall, session: FakeSession) => void;

let seq = 0;

export class FakeSession implements BridgeSession, PooledSession {
  readonly id = `fake-${++seq}`;
  holder: SessionHolder | undefined;
  closed = false;
  closeReason = '';
  negotiatedVersion = '2025-11-25';
  /** What `running()` answers: whether the server's local process runs (stdio on Linux); undefined: unknown. */
  processRunning: boolean | undefined = undefined;
  /** What `running('main')` answers when it differs: a thread beside the main one keeps running. */
  mainThreadRunning: boolean | undefined = undefined;

  /** A local process once the test says what `running()` answers. */
  get localProcess(): boolean {
    return this.processRunning !== undefined;
  }

  running(threads: 'all' | 'main'): boolean | undefined {
    return threads === 'main' ? (this.mainThreadRunning ?? this.processRunning) : this.processRunning;
  }
  readonly calls: FakeCall[] = [];
  private nextServerId = 0;

  constructor(
    readonly capabilities: object = {},
    private readonly server?: FakeServer,
  ) {}

  request(
    method: string,
    params: JsonObject | undefined,
    opts: { signal?: AbortSignal; onprogress?: (p: JsonObject) => void; holder?: SessionHolder } = {},
  ): Promise<JsonObject> {
    // The latest interactive call receives what the fake server asks (as on an exclusive session).
    if (opts.holder) this.holder = opts.holder;
    return new Promise((resolve, reject) => {
      const call: FakeCall = { method, params, signal: opts.signal, onprogress: opts.onprogress, resolve, reject };
      opts.signal?.addEventListener('abort', () => reject(new McpError(LEGACY.REQUEST_TIMEOUT, 'Request cancelled')), { once: true });
      this.calls.push(call);
      this.server?.(call, this);
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
    for (const c of this.calls) c.reject(new McpError(LEGACY.CONNECTION_CLOSED, 'Connection closed'));
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

/** An exclusive lease on `session` that records what became of it (`release`, or `discard: WHY`). */
export function recordingLease(session: FakeSession): { lease: SessionLease; released: string[] } {
  const released: string[] = [];
  const lease: SessionLease = {
    session,
    mode: 'exclusive',
    release: () => released.push('release'),
    discard: (why) => released.push(`discard: ${why}`),
    markWaiting: () => true,
    markParked: () => {},
    markActive: async () => {},
  };
  return { lease, released };
}

export { until } from './wait.js';
