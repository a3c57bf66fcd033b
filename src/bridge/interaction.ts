// One interactive legacy call and everything it asked for. It holds its legacy session
// exclusively, collects the server's requests as pending inputs, and tells the bridge what happened
// next (`next()`): the final outcome, a batch of inputs to ask the client for, a timeout or a
// cancellation. It never decides wire formats; the bridge does.
import { McpError, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Lease } from '../upstream/pool.js';
import type { JsonObject, ServerRequest, SessionHolder } from '../upstream/session.js';
import type { Logger } from '../telemetry/logger.js';
import { inputKey, isInputMethod, toInputRequest, type InputMethod, type InputRequest } from './translate.js';

/** Where notifications for the current round's front request go. */
export interface FrontSink {
  progressToken?: string | number;
  logLevel?: string;
  notify(notification: { method: string; params: JsonObject }): Promise<void>;
}

export interface PendingInput {
  key: string;
  method: InputMethod;
  request: InputRequest;
  /** Absent for inputs the proxy made up itself (URL elicitations from a legacy -32042). */
  legacyId?: RequestId;
  respond(result: JsonObject): void;
  fail(code: number, message: string): void;
}

/** `lost` says why the session died when the call failed because of that. */
export type Outcome = { kind: 'complete'; result: JsonObject } | { kind: 'error'; error: unknown; lost?: string };
export type Stop = Outcome | { kind: 'input'; pending: PendingInput[] } | { kind: 'timeout' } | { kind: 'aborted' };

export interface LegacyCall {
  method: string;
  params: JsonObject;
}

const LOG_SEVERITY = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export class Interaction implements SessionHolder {
  round = 0;
  sink: FrontSink | undefined;
  /** Set while the client must answer URL elicitations before the call is sent again. */
  replay: { message: string; answers: Map<string, JsonObject> } | undefined;
  private seq = 0;
  private readonly pending = new Map<string, PendingInput>();
  private outcome: Outcome | undefined;
  private lease: Lease | undefined;
  private callAbort: AbortController | undefined;
  private wake: (() => void) | undefined;
  /** Notifications on their way to the front; the final answer waits for them (ordering). */
  private readonly relaying = new Set<Promise<void>>();

  constructor(
    readonly handle: string,
    readonly call: LegacyCall,
    private readonly log: Logger,
  ) {}

  get session() {
    return this.lease?.session;
  }

  /** Sends the legacy call on an exclusively held session. */
  start(lease: Lease): void {
    this.lease = lease;
    this.outcome = undefined;
    lease.session.holder = this;
    const abort = new AbortController();
    this.callAbort = abort;
    lease.session
      .request(this.call.method, this.call.params, { signal: abort.signal, onprogress: (p) => this.onProgress(p) })
      .then(
        (result) => this.settle({ kind: 'complete', result }),
        (error: unknown) =>
          this.settle(lease.session.closed ? { kind: 'error', error, lost: lease.session.closeReason } : { kind: 'error', error }),
      );
  }

  /** Waits for the next thing the bridge must act on. */
  async next(opts: { gatherMs: number; timeoutMs: number; signal: AbortSignal }): Promise<Stop> {
    const deadline = Date.now() + opts.timeoutMs;
    let gatherUntil: number | undefined;
    for (;;) {
      if (this.outcome) return this.outcome;
      if (opts.signal.aborted) return { kind: 'aborted' };
      const now = Date.now();
      if (this.pending.size > 0) {
        gatherUntil ??= now + opts.gatherMs;
        if (now >= gatherUntil) return { kind: 'input', pending: this.unanswered() };
      }
      if (now >= deadline) return { kind: 'timeout' };
      await this.waitForEvent(Math.min(deadline, gatherUntil ?? deadline) - now, opts.signal);
    }
  }

  unanswered(): PendingInput[] {
    return [...this.pending.values()];
  }

  /** Sends the client's answer to the legacy server as the response to its request. */
  answer(key: string, result: JsonObject): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    p.respond(result);
  }

  /** Answers a pending request with an error (for example a capability the client lacks). */
  refuse(key: string, code: number, message: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    p.fail(code, message);
  }

  /** Turns a legacy -32042 into URL elicitations the client must answer before the call is re-sent. */
  askUrls(message: string, elicitations: JsonObject[]): void {
    this.replay = { message, answers: new Map() };
    for (const e of elicitations) {
      const key = inputKey('elicitation/create', ++this.seq);
      const request = toInputRequest('elicitation/create', { ...e, mode: 'url' });
      const answers = this.replay.answers;
      this.pending.set(key, { key, method: 'elicitation/create', request, respond: (r) => answers.set(key, r), fail: () => {} });
    }
  }

  /**
   * Ends the interaction: open legacy requests get a local answer (elicitation `cancel`, others an
   * error), the legacy call is cancelled upstream, and the session is discarded.
   */
  end(reason: string): void {
    for (const p of this.unanswered()) {
      if (p.method === 'elicitation/create') this.answer(p.key, { action: 'cancel' });
      else this.refuse(p.key, p.method === 'sampling/createMessage' ? -1 : -32603, `the client did not answer: ${reason}`);
    }
    if (!this.outcome) this.callAbort?.abort(reason);
    this.detach((lease) => lease.discard(reason));
  }

  onServerRequest(request: ServerRequest, withdrawn: AbortSignal): Promise<JsonObject> {
    const { method, params } = request;
    if (!isInputMethod(method)) {
      return Promise.reject(new McpError(-32601, `mrtr-proxy cannot forward ${method} to a 2026-07-28 client`));
    }
    return new Promise<JsonObject>((resolve, reject) => {
      const key = inputKey(method, ++this.seq);
      this.pending.set(key, {
        key,
        method,
        request: toInputRequest(method, params),
        legacyId: request.id,
        respond: resolve,
        fail: (code, message) => reject(new McpError(code, message)),
      });
      // The legacy server withdrew it (its own timeout): never ask the client for it again. The SDK
      // sends no response for an aborted request, so settling here only frees the promise.
      withdrawn.addEventListener(
        'abort',
        () => {
          if (this.pending.delete(key)) {
            this.log.info('legacy server withdrew its request', { handle: this.handle, key });
            resolve({});
            this.poke();
          }
        },
        { once: true },
      );
      this.poke();
    });
  }

  onLog(params: JsonObject): void {
    const wanted = this.sink?.logLevel;
    const level = String(params['level'] ?? 'info');
    if (!this.sink || wanted === undefined) return;
    if (LOG_SEVERITY.indexOf(level) < LOG_SEVERITY.indexOf(wanted)) return;
    this.relay(this.sink, { method: 'notifications/message', params });
  }

  private onProgress(p: JsonObject): void {
    const token = this.sink?.progressToken;
    if (!this.sink || token === undefined) return; // suspended, or the client did not ask: drop
    this.relay(this.sink, { method: 'notifications/progress', params: { ...p, progressToken: token } });
  }

  /** Resolves once every notification relayed so far has been handed to the front. */
  async flush(): Promise<void> {
    await Promise.all(this.relaying);
  }

  private relay(sink: FrontSink, notification: { method: string; params: JsonObject }): void {
    const sent = sink.notify(notification).catch(() => {});
    this.relaying.add(sent);
    void sent.finally(() => this.relaying.delete(sent));
  }

  private settle(outcome: Outcome): void {
    this.outcome = outcome;
    // The call is over: requests it left open will never matter to it.
    for (const p of this.unanswered()) {
      if (p.method === 'elicitation/create') this.answer(p.key, { action: 'cancel' });
      else this.refuse(p.key, -32603, 'the call that asked for this has ended');
    }
    const healthy = !this.lease?.session.closed;
    this.detach((lease) => (healthy ? lease.release() : lease.discard('session closed during the call')));
    this.poke();
  }

  private detach(dispose: (lease: Lease) => void): void {
    const lease = this.lease;
    if (!lease) return;
    this.lease = undefined;
    if (lease.session.holder === this) lease.session.holder = undefined;
    dispose(lease);
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private waitForEvent(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}
