// The MRTR bridge: runs an interactive front request (tools/call, prompts/get, resources/read)
// against a legacy server, turning the server's mid-call requests into `input_required` rounds and
// resuming the suspended call when the retry arrives.
import { randomUUID } from 'node:crypto';
import { ProxyError, UpstreamError, type WireError } from '../protocol/errors.js';
import { classifyFailure } from '../protocol/legacy-errors.js';
import type { JsonObject } from '../protocol/json.js';
import { declaresRoots, planRoots, rootsFromAnswers } from '../protocol/roots.js';
import type { Clock } from '../clock.js';
import { fingerprint } from '../state/fingerprint.js';
import type { ConsumedLedger } from '../state/ledger.js';
import { principalTag } from '../state/principal.js';
import { NO_TELEMETRY, type TraceOrigin, type UpstreamTelemetry } from '../telemetry/ports.js';
import type { BoundCall, BridgeLimits, BridgeOptions, FrontCall } from './front-call.js';
import { type DropNotification, Interaction, type PendingInput, type Stop } from './interaction.js';
import { type InteractionObserver, leaseForCall, type SessionLease } from './ports.js';
import { PrincipalLoad, taskShare } from './principal-load.js';
import { inputRequired, refuseUndeclared, takeWaitingSlot } from './refusals.js';
import { checkRetryAnswers, goneError, heldClaims, openState } from './retry.js';
import { answerRootsLocally, readRootsAnswer, RootsRound, rootsRoundResult } from './roots-round.js';
import { type Rerun, replayRetry } from './replay-retry.js';
import { ReplayRun, type ReplayContext } from './replay-run.js';
import { REFUSED_ROUND_GRACE_MS, SuspensionTable, type EndReason } from './suspensions.js';
import { chooseMode } from './suspend-mode.js';
import { type HostedTaskPolicy, hostedSupport } from './tasks/hosted-task.js';
import { DEFAULT_TASK_BOUNDS } from './tasks/task-bounds.js';
import { DEFAULT_TASK_TTL_MS, type TaskFront, TaskTable } from './tasks/task-table.js';
import type { TaskSupport } from './tasks/task-wire.js';
import { legacyCapabilitiesFor } from '../protocol/capabilities.js';

export type { BridgeLimits, BridgeOptions, FrontCall } from './front-call.js';

/** How often suspensions nobody resumed are looked for. */
const EXPIRY_SWEEP_MS = 1000;

export class Bridge {
  private readonly suspended = new SuspensionTable<Interaction | RootsRound>();
  private readonly active = new Set<Interaction>();
  private readonly load = new PrincipalLoad();
  private readonly clock: Clock;
  private readonly stopSweeper: () => void;
  private limits: BridgeLimits;
  private readonly replay: ReplayContext;
  private readonly telemetry: UpstreamTelemetry;
  /** Each interaction's first-round span, which its later rounds link to. */
  private readonly origins = new WeakMap<Interaction | RootsRound, TraceOrigin>();
  /** The legacy tasks this bridge's calls created, translated for the tasks extension, and its own tasks. */
  readonly tasks: TaskTable;
  /** The single-use ledger, its failures logged here (the client is told only that the store is unreachable). */
  private readonly loggedLedger: Pick<ConsumedLedger, 'consume'> = {
    consume: (id, expiresAtMs) =>
      this.opts.ledger.consume(id, expiresAtMs).catch((err: unknown) => {
        this.opts.log.warn('state store command failed', { error: (err as Error).message });
        throw err;
      }),
  };
  /** Calls that may become tasks and have not yet, by principal (see call). */
  private readonly startingTasks = new Map<string, number>();
  /** Hosted calls that run as ordinary calls until their policy's `afterMs`, then become tasks. */
  private readonly hosting = new WeakMap<Interaction, HostedTaskPolicy>();

  constructor(private readonly opts: BridgeOptions) {
    this.clock = opts.clock;
    this.limits = { ...opts.limits };
    this.telemetry = opts.telemetry ?? NO_TELEMETRY;
    this.stopSweeper = this.clock.every(EXPIRY_SWEEP_MS, () => this.expire());
    this.tasks = new TaskTable({
      sealer: opts.sealer,
      instance: opts.instance,
      upstream: opts.upstream,
      advertiseUrl: opts.advertiseUrl,
      store: opts.taskStore,
      observer: opts.taskObserver,
      operatorRoots: () => opts.sessions.operatorRoots(),
      clock: opts.clock,
      log: opts.log,
      bounds: () => ({
        maxResultBytes: this.limits.maxTaskResultBytes ?? DEFAULT_TASK_BOUNDS.maxResultBytes,
        maxFinished: this.limits.maxFinishedTasks ?? DEFAULT_TASK_BOUNDS.maxFinished,
        maxFinishedBytes: this.limits.maxFinishedTaskBytes ?? DEFAULT_TASK_BOUNDS.maxFinishedBytes,
      }),
      dropNotification: this.dropNotification,
    });
    this.replay = {
      ...opts,
      telemetry: this.telemetry,
      limits: () => this.limits,
      checkCapabilities: (interaction, front, pending) => this.checkCapabilities(interaction, front as BoundCall, pending),
      hold: (interaction, front, pending) => this.ask(interaction, front as BoundCall, pending),
    };
  }

  private readonly dropNotification: DropNotification = (method, reason, detail) => this.telemetry.notificationDropped(method, reason, detail);

  get suspendedCount(): number {
    return this.suspended.size;
  }

  /** Whether the proxy runs some of this upstream's tools as tasks of its own (tasks/hosted-task.ts). */
  get hostsTasks(): boolean {
    const tasks = this.limits.tasks;
    return tasks !== undefined && tasks.tools.length + tasks.required.length > 0;
  }

  /** A tool's task support as this proxy hosts it (`forbidden`: not hosted). */
  hostedSupport(tool: string): TaskSupport {
    return hostedSupport(this.limits.tasks, tool);
  }

  /** Interactions a front request is attached to (waiting on the legacy server). */
  get runningCount(): number {
    return this.active.size;
  }

  async call(front: FrontCall): Promise<JsonObject> {
    const state = front.requestState;
    // A retry refused for its requestState: `data.reason` says why (retry.ts).
    const resume = (token: string) =>
      this.resume(front, token).catch((err: unknown) => {
        if (err instanceof ProxyError && (err.code === 'state_invalid' || err.code === 'interaction_gone'))
          this.telemetry.stateRejected(String(err.data?.['reason']));
        throw err;
      });
    const work = () => (state === undefined ? this.begin(front) : resume(state));
    const running = this.tasks.runningOf(front.principal);
    const share = this.opts.sessions.waitingShare?.();
    // Calls that may become tasks count as tasks while they start, so a burst cannot pass the share before any is made.
    const starting = state === undefined && front.task !== undefined && share !== undefined;
    if (!starting) return this.load.run(front.principal, state === undefined ? 'begin' : 'resume', this.limits, work, running);
    const task = { tasks: running + (this.startingTasks.get(front.principal) ?? 0), maxTasks: taskShare(share.max, this.limits.maxCallsPerPrincipal) };
    this.startingTasks.set(front.principal, (this.startingTasks.get(front.principal) ?? 0) + 1);
    try {
      return await this.load.run(front.principal, 'begin', this.limits, work, running, task);
    } finally {
      const n = (this.startingTasks.get(front.principal) ?? 1) - 1;
      if (n > 0) this.startingTasks.set(front.principal, n);
      else this.startingTasks.delete(front.principal);
    }
  }

  /**
   * A task holds its legacy session for as long as it runs, so it takes a place in the waiting share
   * (--waiting-share), as a call waiting for its client does: past the share it is refused at once,
   * and the rest of the sessions stay free for other calls. `lease`: taken now; without, only
   * whether one more would fit (a task about to acquire its session).
   */
  private holdForTask(lease?: SessionLease): void {
    const fits = lease === undefined ? (this.opts.sessions.waitingShare?.().room ?? true) : lease.markWaiting();
    if (fits) return;
    lease?.release();
    throw taskShareFull();
  }

  /** Ends suspensions nobody resumed in time. */
  expire(): void {
    for (const interaction of this.suspended.expire(this.clock.now())) {
      this.opts.log.info('interaction expired', { handle: interaction.handle, round: interaction.round });
      this.finish(interaction, 'expired', 'the interaction expired');
    }
  }

  /** A reload: the new limits apply to new calls and from the next round of running ones. */
  reconfigure(limits: BridgeLimits): void {
    this.limits = { ...limits };
  }

  async close(): Promise<void> {
    this.stopSweeper();
    const open = [...this.suspended.items(), ...this.active];
    for (const i of open) this.finish(i, 'cancelled', 'the proxy is shutting down');
    if (open.length > 0) this.opts.log.info('interactions ended: the proxy is shutting down', { count: open.length });
    await this.tasks.close();
  }

  private async begin(front: FrontCall): Promise<JsonObject> {
    this.telemetry.roundServed(front.record, 0, undefined);
    // A hosted task asks for roots inside the task, like any question of its call.
    if (front.task === 'hosted') return this.startHosted(front);
    // Right after start the proxy may not know yet whether the server reads roots at initialize.
    if (declaresRoots(front.capabilities)) await this.opts.sessions.rootsKnown?.();
    if (this.needsRootsRound(front)) return this.askRoots(front, new RootsRound(randomUUID()));
    if (front.task === 'legacy') return this.startTask(front);
    if ((await chooseMode(front, this.limits.suspend, this.opts.toolHints, this.opts.log)).mode === 'replay')
      return this.rerun({ call: front, record: [], round: 1, callId: randomUUID(), answers: new Map() });
    const lease = await leaseForCall(this.opts.sessions, front);
    // The session just opened may be the first to show that the server asks for roots at initialize.
    if (this.needsRootsRound(front)) {
      lease.release();
      return this.askRoots(front, new RootsRound(randomUUID()));
    }
    return this.startCall(front, lease);
  }

  /**
   * A call that may become a legacy task: sent task-augmented on a session of its own, since the
   * task will belong to that session. Questions the server asks before it creates the task are
   * rounds like any call's (held: a replay would create a second task).
   */
  private async startTask(front: BoundCall): Promise<JsonObject> {
    this.holdForTask();
    const lease = await this.opts.sessions.acquire(legacyCapabilitiesFor(front.capabilities), 'exclusive', front.roots, undefined, front.principal);
    this.holdForTask(lease);
    return this.startCall({ ...front, params: { ...front.params, task: { ttl: DEFAULT_TASK_TTL_MS } } }, lease);
  }

  /**
   * A plain call the proxy runs as a task of its own (tasks/hosted-task.ts), on a session of its
   * own: the call may wait a long time for its client, and nothing else should queue behind it. A
   * task at once, or (`afterMs`) an ordinary held call first, which becomes a task once it ran that
   * long in one round (handOver).
   */
  private async startHosted(front: BoundCall): Promise<JsonObject> {
    const policy = this.limits.tasks;
    if (policy === undefined)
      throw new ProxyError('upstream_failed', 'tasks_not_configured', 'this upstream runs no tasks of the proxy (its configuration changed)');
    this.holdForTask();
    const lease = await this.opts.sessions.acquire(legacyCapabilitiesFor(front.capabilities), 'exclusive', front.roots, undefined, front.principal);
    if (policy.afterMs > 0) return this.startCall(front, lease);
    this.holdForTask(lease);
    const interaction = new Interaction(randomUUID(), { method: front.method, params: front.params }, this.opts.log, this.clock, this.dropNotification);
    interaction.start(lease, front.record);
    return this.tasks.host(interaction, this.taskFront(front), policy, {
      gatherMs: this.limits.gatherWindowMs,
      legacyVersion: lease.session.negotiatedVersion,
    });
  }

  /** A hosted call that ran its policy's `afterMs` in one round without ending or asking goes on as a task. */
  private async handOver(interaction: Interaction, front: BoundCall, policy: HostedTaskPolicy): Promise<JsonObject> {
    this.hosting.delete(interaction);
    this.load.settle(interaction.handle);
    this.telemetry.interactionEnded('task', interaction.round);
    this.opts.observer?.onEnd({ handle: interaction.handle, reason: 'task' });
    this.opts.log.debug('the call goes on as a task', { handle: interaction.handle, round: interaction.round });
    const legacyVersion = interaction.session?.negotiatedVersion ?? '2025-11-25';
    if (!interaction.holdForTask()) {
      this.finish(interaction, 'cancelled', 'too many tasks hold legacy sessions');
      throw taskShareFull();
    }
    return this.tasks.host(interaction, this.taskFront(front), policy, { gatherMs: this.limits.gatherWindowMs, legacyVersion });
  }

  /** What a task keeps of the request that created it. */
  private taskFront(front: BoundCall): TaskFront {
    return {
      principal: front.principal,
      capabilities: front.capabilities,
      tool: String(front.params['name'] ?? ''),
      origin: this.telemetry.traceOrigin(front.record),
    };
  }

  private needsRootsRound(front: FrontCall): boolean {
    const serverAsksOutsideCalls = this.opts.sessions.asksRootsOutsideCalls();
    return planRoots({ declaresRoots: declaresRoots(front.capabilities), serverAsksOutsideCalls, known: undefined }).kind === 'ask';
  }

  /** `origin`: the span of the interaction's first round (this request's, unless a roots round came first). */
  private startCall(call: BoundCall, lease: SessionLease, origin = this.telemetry.traceOrigin(call.record), replay?: Rerun): Promise<JsonObject> {
    const interaction = new Interaction(randomUUID(), { method: call.method, params: call.params }, this.opts.log, this.clock, this.dropNotification);
    if (origin) this.origins.set(interaction, origin);
    if (call.task === 'hosted' && this.limits.tasks) this.hosting.set(interaction, this.limits.tasks);
    interaction.start(lease, call.record);
    this.opts.observer?.onStart(startEvent(interaction.handle, call, replay));
    return this.run(interaction, call, replay && new ReplayRun(interaction, replay.record, replay.round, replay.callId, this.replay));
  }

  /** Suspends a roots round: the client answers roots/list, and its retry starts the call (held). */
  private async askRoots(front: FrontCall, round: RootsRound): Promise<JsonObject> {
    const r = round.nextRound();
    const expiresAt = this.clock.now() + this.limits.interactionTtlMs;
    const requestState = await this.opts.sealer.seal(heldClaims(this.opts, round.handle, r, front), expiresAt);
    this.suspended.put(round.handle, round, r, expiresAt);
    const origin = this.origins.get(round) ?? this.telemetry.traceOrigin(front.record);
    if (origin) this.origins.set(round, origin);
    this.telemetry.inputRequired(front.record, front.method, ['roots/list']);
    this.opts.log.debug('asking the client for its roots before the call', { handle: round.handle, round: r });
    return rootsRoundResult(requestState);
  }

  private async resumeRoots(front: FrontCall, round: RootsRound, r: number): Promise<JsonObject> {
    const roots = readRootsAnswer(front.inputResponses, front.droppedInputKeys);
    const claimed = this.suspended.claim(round.handle, r, this.clock.now());
    if (!claimed.ok) throw goneError(claimed);
    if (roots === undefined) return this.askRoots(front, round);
    if (front.task === 'legacy') return this.startTask({ ...front, roots, rootsRound: true });
    const lease = await leaseForCall(this.opts.sessions, front, roots);
    return this.startCall({ ...front, roots, rootsRound: true }, lease, this.origins.get(round));
  }

  /** Runs a replayed call (again) on any session, answering from its record what it can. */
  private async rerun(run: Rerun): Promise<JsonObject> {
    const lease = await leaseForCall(this.opts.sessions, run.call, run.call.roots);
    return this.startCall(run.call, lease, this.telemetry.traceOrigin(run.call.record), run);
  }

  private async resume(front: FrontCall, token: string): Promise<JsonObject> {
    const claims = await openState(this.opts.sealer, token, {
      instance: this.opts.instance,
      upstream: this.opts.upstream,
      principal: front.principal,
      fingerprint: fingerprint(front.identity),
    });
    if (claims.k === 'replay') return this.rerun(await replayRetry(claims, front, this.loggedLedger, this.telemetry));
    const seen = this.suspended.peek(claims.h, claims.r, this.clock.now());
    if (!seen.ok) throw goneError(seen);
    this.telemetry.roundServed(front.record, claims.r, this.origins.get(seen.item));
    if (seen.item instanceof RootsRound) return this.resumeRoots(front, seen.item, claims.r);
    const interaction = seen.item;
    // Validate before consuming the round: a malformed retry loses nothing and may be sent again.
    const asked = interaction.unanswered();
    let checked: ReturnType<typeof checkRetryAnswers>;
    try {
      checked = checkRetryAnswers(asked, front, interaction.session?.negotiatedVersion ?? '2025-11-25');
    } catch (err) {
      this.suspended.shorten(claims.h, claims.r, this.clock.now() + REFUSED_ROUND_GRACE_MS);
      throw err;
    }
    const { answers, shaped, missing } = checked;
    // Roots the client gave during the call are the call's from now on (protocol/roots.ts rootsFromAnswers).
    const roots = claims.rt ?? rootsFromAnswers(asked.map((p) => ({ method: p.method, answer: shaped.get(p.key) })));
    const call: BoundCall = { ...front, roots };
    const claimed = this.suspended.claim(claims.h, claims.r, this.clock.now());
    if (!claimed.ok) throw goneError(claimed);
    this.load.settle(claims.h);
    // The principal's hash is on the 'interaction suspended' line of the same handle.
    this.opts.log.debug('interaction resumed', { handle: interaction.handle, round: claims.r, answered: shaped.size, missing: missing.length });
    // A runner waits here for its session's runner slot: its answers wake its legacy handler.
    await interaction.stopWaiting();
    for (const [key, result] of shaped) interaction.answer(key, result);
    this.opts.observer?.onAnswers({ handle: interaction.handle, round: claims.r, answers });

    const consent = interaction.urlConsent();
    if (consent.kind === 'declined') {
      this.finish(interaction, 'completed', `the user did not complete the URL elicitation (${consent.action})`);
      throw new ProxyError(
        'declined',
        'url_elicitation_declined',
        `the user did not complete the URL elicitation the server requires (${consent.action}): ${consent.message}`,
      );
    }
    if (consent.kind === 'granted') {
      try {
        // Back to the session whose server asked for the consent, where it can: its state may be per session.
        interaction.start(await leaseForCall(this.opts.sessions, front, call.roots, interaction.lastSession), front.record);
      } catch (err) {
        this.finish(interaction, 'lost');
        throw err;
      }
    }
    return this.run(interaction, call);
  }

  /** One round: wait for the legacy call's next event and turn it into the front's answer. */
  private async run(interaction: Interaction, front: BoundCall, replay?: ReplayRun): Promise<JsonObject> {
    this.active.add(interaction);
    interaction.attachFront(front.sink);
    try {
      return await this.decide(interaction, front, replay);
    } finally {
      // Progress and log lines the legacy server sent before its answer go out before it.
      await interaction.detachFront();
      this.active.delete(interaction);
    }
  }

  private async decide(interaction: Interaction, front: BoundCall, replay?: ReplayRun): Promise<JsonObject> {
    const hosted = this.hosting.get(interaction);
    const timeoutMs = hosted ? Math.min(hosted.afterMs, this.limits.callTimeoutMs) : this.limits.callTimeoutMs;
    for (;;) {
      const stop = interaction.awaitingUrlConsent
        ? { kind: 'input' as const, pending: interaction.unanswered() }
        : await interaction.next({ gatherMs: this.limits.gatherWindowMs, timeoutMs, signal: front.signal });
      if (stop.kind === 'input' && !interaction.awaitingUrlConsent) {
        const rest = answerRootsLocally(interaction, stop.pending, {
          declaresRoots: declaresRoots(front.capabilities),
          known: front.roots,
          operatorRoots: this.opts.sessions.operatorRoots(),
        });
        // Undefined or nothing left: everything was answered here and the call goes on.
        const answer = rest.length === 0 ? undefined : replay ? await replay.onInput(rest, front) : await this.ask(interaction, front, rest);
        if (answer !== undefined) return answer;
        continue;
      }
      return await this.settle(interaction, front, stop);
    }
  }

  private async settle(interaction: Interaction, front: BoundCall, stop: Stop): Promise<JsonObject> {
    switch (stop.kind) {
      case 'complete': {
        const created = interaction.createdTask;
        const lease = created && interaction.takeTaskLease();
        this.finish(interaction, 'completed', undefined, { result: stop.result });
        if (created === undefined) return stop.result;
        if (!lease) throw new ProxyError('upstream_failed', 'legacy_session_lost', 'the legacy server created the task, but its session ended at once');
        // Its place in the waiting share was taken before the call was sent; a round in between may have given it back.
        if (!lease.markWaiting()) this.opts.log.debug('a legacy task holds its session past the waiting share');
        return await this.tasks.adopt(lease, created, this.taskFront(front));
      }
      case 'error':
        return await this.failed(interaction, front, stop.error, stop.lost);
      case 'input':
        return await this.ask(interaction, front, stop.pending);
      case 'timeout': {
        const hosted = this.hosting.get(interaction);
        if (hosted) return await this.handOver(interaction, front, hosted);
        this.finish(interaction, 'cancelled', 'the proxy call timeout fired');
        throw new ProxyError(
          'timeout',
          'call_timeout',
          `the legacy server did not answer within ${this.limits.callTimeoutMs / 1000}s (--call-timeout); the call was cancelled`,
        );
      }
      case 'aborted':
        this.finish(interaction, 'cancelled', 'the client cancelled the request');
        throw new ProxyError('upstream_failed', 'client_cancelled', 'the request was cancelled by the client');
    }
  }

  private async ask(interaction: Interaction, front: BoundCall, pending: PendingInput[]): Promise<JsonObject> {
    this.checkCapabilities(interaction, front, pending);
    takeWaitingSlot(interaction, this.limits.gatherWindowMs, (why) => this.finish(interaction, 'cancelled', why));
    const round = interaction.nextRound();
    const expiresAt = this.clock.now() + this.limits.interactionTtlMs;
    const requestState = await this.opts.sealer.seal(heldClaims(this.opts, interaction.handle, round, front), expiresAt);
    this.suspended.put(interaction.handle, interaction, round, expiresAt);
    this.load.wait(front.principal, interaction.handle);
    interaction.onGaveUp = (waitedMs) => this.gaveUp(interaction, waitedMs);
    this.opts.observer?.onRound({ handle: interaction.handle, round, asked: pending.map((p) => ({ key: p.key, ...p.request })) });
    const [methods, inputs] = [pending.map((p) => p.method), pending.map((p) => p.key)];
    this.telemetry.inputRequired(front.record, front.method, methods);
    this.opts.log.debug('interaction suspended', { handle: interaction.handle, principal: principalTag(front.principal), round, inputs });
    return inputRequired(pending, requestState);
  }

  private checkCapabilities(interaction: Interaction, front: BoundCall, pending: PendingInput[]): void {
    refuseUndeclared(interaction, front.capabilities, pending, (why) => this.finish(interaction, 'cancelled', why));
  }

  private async failed(interaction: Interaction, front: BoundCall, error: unknown, lost: string | undefined): Promise<JsonObject> {
    const failure = classifyFailure(error, lost);
    if (failure.kind === 'url_required') {
      interaction.awaitUrlConsent(failure.message, failure.elicitations as JsonObject[]);
      return this.ask(interaction, front, interaction.unanswered());
    }
    this.finish(interaction, failure.kind === 'lost' ? 'lost' : 'completed', undefined, failure.kind === 'error' ? { error: failure.error } : {});
    throw failure.kind === 'lost' ? new ProxyError('upstream_failed', 'legacy_session_lost', failure.message) : new UpstreamError(failure.error);
  }

  /** A held call whose legacy server stopped waiting ends now; its retry learns after how long. */
  private gaveUp(interaction: Interaction, waitedMs: number): void {
    if (!this.suspended.has(interaction.handle)) return;
    this.opts.log.info('the legacy server gave up waiting for the user; the held call ends', { handle: interaction.handle, waitedMs });
    this.finish(interaction, 'legacy_gave_up', 'the legacy server gave up waiting', {}, waitedMs);
  }

  private finish(
    interaction: Interaction | RootsRound,
    reason: EndReason,
    why?: string,
    outcome: { result?: JsonObject; error?: WireError } = {},
    waitedMs?: number,
  ): void {
    this.suspended.end(interaction.handle, reason, waitedMs);
    this.telemetry.interactionEnded(reason, interaction.round);
    this.load.settle(interaction.handle);
    interaction.end(why ?? reason);
    this.opts.observer?.onEnd({ handle: interaction.handle, reason, ...(why === undefined ? {} : { why }), ...outcome });
  }
}

/**
 * What the observers hear when an interactive call is sent to the legacy server: the call, the
 * client's capabilities and roots, and for a replayed run its link to the call and the record it
 * is answered from.
 */
function startEvent(handle: string, call: BoundCall, replay: Rerun | undefined): Parameters<InteractionObserver['onStart']>[0] {
  const { method, params, capabilities, roots, rootsRound } = call;
  const replayed = replay && {
    replay: { call: replay.callId, run: replay.round, answers: replay.answers },
    recorded: replay.record,
    roundsBefore: replay.round - 1,
  };
  return { handle, method, params, mode: replay ? 'replay' : 'hold', capabilities, roots, ...(rootsRound ? { rootsRound } : {}), ...replayed };
}

/** A task refused because the waiting share is used up (see Bridge.holdForTask). */
function taskShareFull(): ProxyError {
  return new ProxyError(
    'overloaded',
    'waiting_limit',
    'too many tasks and calls waiting for input hold legacy sessions (--waiting-share of --max-sessions), so this task was not started; try again later',
  );
}
