// One interactive legacy call and everything it asked for. It holds a lease on a legacy session
// (exclusive, or shared with other calls), collects the server's requests for it as pending inputs, and tells the bridge what happened
// next (`next()`): the final outcome, a batch of inputs to ask the client for, a timeout or a
// cancellation. It never decides wire formats; the bridge does.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPC, LEGACY } from '../protocol/errors.js';
import { inputKey, isInputMethod, toInputRequest } from '../protocol/input-requests.js';
import { isJsonObject, type JsonObject, type ServerRequest } from '../protocol/json.js';
import type { Cancel, Clock } from '../clock.js';
import type { Logger } from '../telemetry/logger.js';
import type { FrontRecord } from '../telemetry/ports.js';
import { GATHER_QUIET_MS, gatherDecision } from './gather.js';
import { LET_GO_QUIET_MS, settleThenRelease } from './let-go.js';
import { NotificationRelay } from './notification-relay.js';
import type { DropNotification, FrontSink, LegacyCall, Outcome, PendingInput, Stop, UrlConsent } from './interaction-types.js';
import type { BridgeSession, SessionHolder, SessionLease } from './ports.js';
import { type LegacyTask, legacyTaskCreated } from './tasks/task-wire.js';

export type { DropNotification, FrontSink, LegacyCall, Outcome, PendingInput, Stop, UrlConsent } from './interaction-types.js';

export class Interaction implements SessionHolder {
  private rounds = 0;
  private isParked = false;
  /** Waiting for its client, not yet parked: cancels the wait for the session to settle (startWaiting). */
  private settling: Cancel | undefined;
  /** Ended by the bridge; a runner's handler may still run until its result or the let-go. */
  private ending = false;
  /** Let go for replay: its handler, refused, may still run until its result or its cancellation. */
  private lettingGo = false;
  private sentOn: BridgeSession | undefined;
  /** While a legacy -32042 is answered: URL elicitations to complete before the call is re-sent on a fresh session. */
  private urlGate: { message: string; answers: Map<string, JsonObject> } | undefined;
  private seq = 0;
  /** When the legacy server's latest request arrived (the gather window closes once it is quiet). */
  private lastRequestAt = 0;
  /** The `lastRequestAt` after which the local legacy process was seen waiting as its round closed. */
  private waitSeenFor: number | undefined;
  private readonly pending = new Map<string, PendingInput>();
  private outcome: Outcome | undefined;
  private lease: SessionLease | undefined;
  /** A task-augmented call answered with a task: its session, kept for the task (see takeTaskLease). */
  private taskLease: SessionLease | undefined;
  private created: LegacyTask | undefined;
  /** Cancels the legacy call (the SDK then sends notifications/cancelled). */
  private callAbort: AbortController | undefined;
  private wake: (() => void) | undefined;
  /** The legacy server withdrew a request while the user thinks (no front attached): its timeout fired. */
  onGaveUp: ((waitedMs: number) => void) | undefined;
  /**
   * Requests withdrawn while a front was still attached, with how long each had waited: one taken
   * into the round being answered, but withdrawn before the call was suspended, would otherwise
   * leave the suspended call waiting for an answer its server no longer wants (withdrawnIn).
   */
  private readonly withdrawnAttached = new Map<string, number>();
  /** Progress and log lines, to the front request of the round (notification-relay.ts). */
  private readonly notifications: NotificationRelay;

  constructor(
    readonly handle: string,
    readonly call: LegacyCall,
    private readonly log: Logger,
    private readonly clock: Clock,
    dropped: DropNotification = () => {},
  ) {
    this.notifications = new NotificationRelay(dropped);
  }

  get session(): BridgeSession | undefined {
    return this.lease?.session;
  }

  /** The session the legacy call was last sent on (kept once the lease is given back). */
  get lastSession(): BridgeSession | undefined {
    return this.sentOn;
  }

  /** Rounds asked so far. */
  get round(): number {
    return this.rounds;
  }

  /** A replayed call's run going on held: its rounds follow the `rounds` its earlier runs asked. */
  continueAfter(rounds: number): void {
    this.rounds = Math.max(this.rounds, rounds);
  }

  /** Counts a new `input_required` round and returns its number. */
  nextRound(): number {
    return ++this.rounds;
  }

  /** Waiting for its client's answers: the legacy handler is blocked on them and cannot ask anything (see upstream/attribution.ts). */
  get parked(): boolean {
    return this.isParked;
  }

  /**
   * Between two rounds the call waits for a person. Its session may be held that way only while
   * the pool's share for waiting sessions lasts; false means it must not wait. (Without a session,
   * as behind a URL-elicitation gate, waiting costs the pool nothing.)
   *
   * It parks once its legacy session has been quiet for `settleMs` (the gather window). A round
   * goes out after a much shorter quiet period (gather.ts), which a server that was short of CPU
   * between two sends can outlast, so a request it had already sent may still be on its way. Until
   * it parks the call still counts as running: such a request is routed to it and asked in its next
   * round, and a runner keeps its session's runner slot, so no other untied call can be taken for
   * the sender (upstream/attribution.ts). A local child seen waiting as its round closed has sent
   * all it had (gather.ts), and one whose main thread waits is taken to have: such a call parks at
   * once.
   */
  startWaiting(settleMs: number): boolean {
    const ok = this.lease?.markWaiting() ?? true;
    if (ok) this.parkWhenQuiet(settleMs);
    return ok;
  }

  /** The call goes on as a task, holding its session: it takes a place in the waiting share (false: none is left). */
  holdForTask(): boolean {
    return this.lease?.markWaiting() ?? true;
  }

  private parkWhenQuiet(settleMs: number): void {
    this.settling = undefined;
    const quietFor = this.clock.now() - this.lastRequestAt;
    if (quietFor < settleMs && this.waitSeenFor !== this.lastRequestAt && this.session?.running?.('main') !== false) {
      this.settling = this.clock.after(settleMs - quietFor, () => this.parkWhenQuiet(settleMs));
      return;
    }
    this.isParked = true;
    this.lease?.markParked();
  }

  /** The client's retry arrived: the call works again once this resolves (a runner has its session's runner slot back). */
  async stopWaiting(): Promise<void> {
    this.stopSettling();
    await this.lease?.markActive();
    this.isParked = false;
  }

  private stopSettling(): void {
    this.settling?.();
    this.settling = undefined;
  }

  /** The front request of the current round receives progress and logs until `detachFront`, first those that came while none was attached. */
  attachFront(sink: FrontSink): void {
    this.notifications.attach(sink);
  }

  /** The call goes on as a task of the proxy (tasks/hosted-task.ts): its notifications have no request to ride on. */
  runsAsTask(): void {
    this.notifications.close('task');
  }

  /** A replayed run says again what the client heard from the runs before: not relayed until `speak`. */
  silence(): void {
    this.notifications.silence();
  }

  speak(): void {
    this.notifications.speak();
  }

  /** Waits for notifications already on their way to the front, then stops relaying to it. */
  async detachFront(): Promise<void> {
    await this.notifications.detach();
  }

  /** Sends the legacy call on a leased session (traced as made for `record`); the session routes the call's legacy requests here. */
  start(lease: SessionLease, record?: FrontRecord): void {
    this.lease = lease;
    this.sentOn = lease.session;
    this.outcome = undefined;
    const abort = new AbortController();
    this.callAbort = abort;
    const untied = lease.mode !== 'shared';
    lease.session
      .request(this.call.method, this.call.params, { signal: abort.signal, onprogress: (p) => this.onProgress(p), holder: this, untied, record })
      .then(
        (result) => this.settle({ kind: 'complete', result }),
        (error: unknown) => this.settle(lease.session.closed ? { kind: 'error', error, lost: lease.session.closeReason } : { kind: 'error', error }),
      );
  }

  /** Reads the local legacy process of the session the call runs on (gather.ts). */
  private readonly readProcess = (threads: 'all' | 'main'): boolean | undefined => this.session?.running?.(threads);

  /** Waits for the next thing the bridge must act on. */
  async next(opts: { gatherMs: number; timeoutMs: number; signal: AbortSignal }): Promise<Stop> {
    const deadline = this.clock.now() + opts.timeoutMs;
    let firstAt: number | undefined;
    let settledLastAt: number | undefined;
    /** Reads of the local process that found it running since the latest request (`readsFor`). */
    let runningReads = 0;
    let readsFor: number | undefined;
    /** When the latest wait should have ended: a gather timer that fires late means a busy machine (gather.ts). */
    let wakeAt = Number.POSITIVE_INFINITY;
    for (;;) {
      if (this.outcome) return this.outcome;
      if (opts.signal.aborted) return { kind: 'aborted' };
      const now = this.clock.now();
      let wait = deadline - now;
      if (this.pending.size > 0) {
        firstAt ??= now;
        const lastAt = Math.max(firstAt, this.lastRequestAt);
        const localProcess = this.session?.localProcess === true;
        if (readsFor !== lastAt) {
          [runningReads, readsFor] = [0, lastAt];
          // A request just read (an I/O callback): the process is read from the check phase, so
          // that each turn after the read is a whole loop iteration that polls I/O again.
          if (localProcess && opts.gatherMs > 0) {
            await this.clock.turn();
            continue;
          }
        }
        const gather = gatherDecision({
          firstAt,
          lastAt,
          now,
          windowMs: opts.gatherMs,
          quietMs: GATHER_QUIET_MS,
          settledLastAt,
          lateMs: now - wakeAt,
          runningReads,
          upstreamRunning: localProcess ? this.readProcess : undefined,
        });
        if (gather.kind === 'close') return { kind: 'input', pending: this.unanswered() };
        if (gather.kind === 'settle' || gather.kind === 'recheck') {
          const requestAt = this.lastRequestAt;
          await this.clock.turn();
          if (gather.kind === 'recheck') runningReads++;
          else {
            settledLastAt = lastAt;
            if (gather.waiting) this.waitSeenFor = requestAt;
          }
          continue;
        }
        wait = Math.min(wait, gather.ms);
      }
      if (now >= deadline) return { kind: 'timeout' };
      wakeAt = now + wait;
      await this.waitForEvent(wait, opts.signal);
    }
  }

  /** Resolves at the call's next event (a request from the server, one withdrawn, the outcome), after `ms`, or once `signal` aborts. */
  changed(ms: number, signal: AbortSignal): Promise<void> {
    return this.waitForEvent(ms, signal);
  }

  /** How long the first of `keys` withdrawn while a front was attached had waited, if one was. */
  withdrawnIn(keys: readonly string[]): number | undefined {
    for (const key of keys) {
      const waited = this.withdrawnAttached.get(key);
      if (waited !== undefined) return waited;
    }
    return undefined;
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
  awaitUrlConsent(message: string, elicitations: JsonObject[]): void {
    const answers = new Map<string, JsonObject>();
    this.urlGate = { message, answers };
    for (const e of elicitations) {
      const key = inputKey('elicitation/create', ++this.seq);
      const request = toInputRequest('elicitation/create', { ...e, mode: 'url' });
      this.pending.set(key, { key, method: 'elicitation/create', request, respond: (r) => answers.set(key, r), fail: () => {} });
    }
  }

  /** True while URL elicitations stand between the client and the re-sent call. */
  get awaitingUrlConsent(): boolean {
    return this.urlGate !== undefined;
  }

  /**
   * Settles the URL gate once every URL elicitation is answered: `granted` means the call must be
   * started again (on a new lease), `declined` that the user refused one of them.
   */
  urlConsent(): UrlConsent {
    const gate = this.urlGate;
    if (!gate) return { kind: 'none' };
    if (this.pending.size > 0) return { kind: 'pending' };
    this.urlGate = undefined;
    const refused = [...gate.answers.values()].find((a) => a['action'] !== 'accept');
    return refused ? { kind: 'declined', action: String(refused['action']), message: gate.message } : { kind: 'granted' };
  }

  /**
   * Ends the interaction: open legacy requests get a local answer (elicitation `cancel`, others an
   * error), the legacy call is cancelled upstream, and an exclusive session is discarded (its state
   * is unknown); a shared one goes back to the pool, since other calls are using it. A runner's
   * handler runs again once answered, so a parked one first takes its session's runner slot, as a
   * resumed call does; a handler answered `cancel` usually returns at once, and its result gives
   * the slot back; one that has not within the let-go quiet period is cancelled and let go.
   */
  end(reason: string): void {
    // A task nobody took (its client went away first): closing its session ends the legacy task.
    this.takeTaskLease()?.discard(`the task's request ended first: ${reason}`);
    const lease = this.lease;
    const waiting = this.isParked || this.settling !== undefined;
    this.stopSettling();
    if (waiting && lease?.mode === 'runner') void lease.markActive().then(() => this.windDown(reason));
    else this.windDown(reason);
  }

  private windDown(reason: string): void {
    this.stopSettling();
    this.isParked = false;
    this.ending = true;
    this.notifications.close('call_ended');
    for (const p of this.unanswered()) {
      if (p.method === 'elicitation/create') this.answer(p.key, { action: 'cancel' });
      else
        this.refuse(p.key, p.method === 'sampling/createMessage' ? LEGACY.SAMPLING_REJECTED : JSONRPC.INTERNAL_ERROR, `the client did not answer: ${reason}`);
    }
    if (this.lease?.mode === 'runner' && !this.outcome) {
      this.clock.after(LET_GO_QUIET_MS, () => this.letGo(reason));
      return;
    }
    if (!this.outcome) this.callAbort?.abort(reason);
    this.detach((lease) => (lease.mode === 'shared' ? lease.release() : lease.discard(reason)));
  }

  /**
   * Replay: fails its open requests so the handler stops, and cancels the call upstream only if it
   * has not ended within the let-go quiet period; then the session settles (let-go.ts). Answering
   * first matters: a legacy SDK forgets the requests of a call it was told is cancelled, and one
   * answered after that it logs as unknown. Nothing the call says from now on reaches a client.
   */
  letGo(reason: string): void {
    this.notifications.cut('call_ended');
    this.lettingGo = true;
    for (const p of this.unanswered()) this.refuse(p.key, JSONRPC.INTERNAL_ERROR, `the call was cancelled: ${reason}`);
    if (this.outcome) return this.detach((lease) => settleThenRelease(lease, this.clock, this.log));
    this.clock.after(LET_GO_QUIET_MS, () => {
      if (!this.outcome) this.callAbort?.abort(reason);
      this.detach((lease) => settleThenRelease(lease, this.clock, this.log));
    });
  }

  onServerRequest(request: ServerRequest, withdrawn: AbortSignal): Promise<JsonObject> {
    const { method, params } = request;
    if (!isInputMethod(method)) {
      return Promise.reject(new McpError(JSONRPC.METHOD_NOT_FOUND, `mrtr-proxy cannot forward ${method} to a 2026-07-28 client`));
    }
    if (this.lettingGo) return Promise.reject(new McpError(JSONRPC.INTERNAL_ERROR, 'the call that asked for this was cancelled'));
    // Ended, its handler still runs: nobody will answer, so it hears at once.
    if (this.ending) {
      if (method === 'elicitation/create') return Promise.resolve({ action: 'cancel' });
      return Promise.reject(new McpError(JSONRPC.INTERNAL_ERROR, 'the call that asked for this has ended'));
    }
    this.lastRequestAt = this.clock.now();
    return new Promise<JsonObject>((resolve, reject) => {
      const key = inputKey(method, ++this.seq);
      const askedAt = this.clock.now();
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
            // Its handler runs again (its own timeout fired): it may ask, so it is parked no more.
            this.isParked = false;
            this.log.info('legacy server withdrew its request', { handle: this.handle, key });
            resolve({});
            // A session that closed aborts every handler too: that is a lost call, not a timeout.
            const session = this.lease?.session;
            if (!this.notifications.attached) this.clock.after(0, () => session?.closed || this.onGaveUp?.(this.clock.now() - askedAt));
            else this.withdrawnAttached.set(key, this.clock.now() - askedAt);
            this.poke();
          }
        },
        { once: true },
      );
      this.poke();
    });
  }

  onLog(params: JsonObject): void {
    this.notifications.deliver({ method: 'notifications/message', params });
  }

  private onProgress(p: JsonObject): void {
    this.notifications.deliver({ method: 'notifications/progress', params: p });
  }

  private settle(outcome: Outcome): void {
    this.outcome = outcome;
    // The call is over: requests it left open will never matter to it.
    for (const p of this.unanswered()) {
      if (p.method === 'elicitation/create') this.answer(p.key, { action: 'cancel' });
      else this.refuse(p.key, JSONRPC.INTERNAL_ERROR, 'the call that asked for this has ended');
    }
    const healthy = !this.lease?.session.closed;
    // Let go for replay: the handler stopped once refused; the session settles before anyone else gets it.
    if (this.lettingGo) {
      this.detach((lease) => settleThenRelease(lease, this.clock, this.log));
      this.poke();
      return;
    }
    if (outcome.kind === 'complete' && isJsonObject(this.call.params['task'])) this.created = legacyTaskCreated(outcome.result);
    if (healthy && this.created !== undefined) {
      // The legacy task belongs to this session: whoever takes the task takes the session with it.
      this.stopSettling();
      this.taskLease = this.lease;
      this.lease = undefined;
    } else this.detach((lease) => (healthy ? lease.release() : lease.discard('session closed during the call')));
    this.poke();
  }

  /** The legacy task a task-augmented call created, once it answered with one. */
  get createdTask(): LegacyTask | undefined {
    return this.created;
  }

  /** The session of the legacy task this call created, for the task to keep; once. */
  takeTaskLease(): SessionLease | undefined {
    const lease = this.taskLease;
    this.taskLease = undefined;
    return lease;
  }

  private detach(dispose: (lease: SessionLease) => void): void {
    this.stopSettling();
    const lease = this.lease;
    if (!lease) return;
    this.lease = undefined;
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
        cancel();
        signal.removeEventListener('abort', done);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const cancel = this.clock.after(ms, done);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}
