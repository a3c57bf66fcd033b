// A call held on its legacy session between rounds: sent on a lease, run round by round (drive.ts)
// while a front request waits on it, suspended with a sealed held state when the server asks, and
// resumed when its retry arrives. The other modes act on its stops through their hooks (mode.ts);
// what no mode takes ends here, through the call's owner.
import { randomUUID } from 'node:crypto';
import { ProxyError, UpstreamError } from '../../protocol/errors.js';
import { classifyFailure } from '../../protocol/legacy-errors.js';
import type { JsonObject } from '../../protocol/json.js';
import { declaresRoots, rootsFromAnswers } from '../../protocol/roots.js';
import { principalTag } from '../../state/principal.js';
import type { TraceOrigin } from '../../telemetry/ports.js';
import { drive, GO_ON } from '../drive.js';
import type { BoundCall, FrontCall } from '../front-call.js';
import type { StartInfo } from '../interaction-events.js';
import { Interaction, type PendingInput, type Stop } from '../interaction.js';
import type { InteractionOwner } from '../owner.js';
import { leaseForCall, type SessionLease } from '../ports.js';
import { inputRequired, refuseUndeclared, takeWaitingSlot } from '../refusals.js';
import { checkRetryAnswers, goneError, heldClaims } from '../retry.js';
import { REFUSED_ROUND_GRACE_MS } from '../suspensions.js';
import { answerRootsLocally } from '../roots-round.js';
import type { Mode, ModeContext, ResumeTarget, RunningCall } from './mode.js';
import { askRoots, needsRootsRound } from './roots.js';

export interface OpenOptions {
  /** The span of the interaction's first round (this request's, unless a roots round came first). */
  origin?: TraceOrigin | undefined;
  /** What the observers hear of the start besides the call (a replay run's link to its call). */
  start?: Partial<StartInfo>;
}

export class HeldCalls implements Mode {
  /** Calls a front request is attached to (waiting on the legacy server). */
  private readonly active = new Set<InteractionOwner>();

  constructor(
    private readonly ctx: ModeContext,
    /** Every mode of the bridge, asked in order for each stop (this one last). */
    private readonly modes: () => readonly Mode[],
  ) {}

  get runningCount(): number {
    return this.active.size;
  }

  /** The owners of the calls running now. */
  running(): InteractionOwner[] {
    return [...this.active];
  }

  /** The plain call: on a session leased for it. */
  async begin(front: BoundCall): Promise<JsonObject> {
    const lease = await leaseForCall(this.ctx.opts.sessions, front);
    // The session just opened may be the first to show that the server asks for roots at initialize.
    if (needsRootsRound(this.ctx, front)) {
      lease.release();
      return askRoots(this.ctx, front);
    }
    return this.run(this.open(front, lease));
  }

  /** The retry of a held round: its answers are checked, then the round is consumed and the call goes on. */
  resume(front: FrontCall, target: ResumeTarget): Promise<JsonObject> | undefined {
    const owner = target.owner;
    if (owner === undefined || !(owner.subject instanceof Interaction)) return undefined;
    return this.resumeHeld(front, target.claims, owner, owner.subject);
  }

  private async resumeHeld(front: FrontCall, claims: ResumeTarget['claims'], owner: InteractionOwner, interaction: Interaction): Promise<JsonObject> {
    // Validate before consuming the round: a malformed retry loses nothing and may be sent again.
    const asked = interaction.unanswered();
    let checked: ReturnType<typeof checkRetryAnswers>;
    try {
      checked = checkRetryAnswers(asked, front, interaction.session?.negotiatedVersion ?? '2025-11-25');
    } catch (err) {
      owner.shorten(claims.r, this.ctx.clock.now() + REFUSED_ROUND_GRACE_MS);
      throw err;
    }
    const { answers, shaped, missing } = checked;
    // Roots the client gave during the call are the call's from now on (protocol/roots.ts rootsFromAnswers).
    const roots = claims.rt ?? rootsFromAnswers(asked.map((p) => ({ method: p.method, answer: shaped.get(p.key) })));
    const claimed = owner.claim(claims.r, this.ctx.clock.now());
    if (!claimed.ok) throw goneError(claimed);
    // The principal's hash is on the 'interaction suspended' line of the same handle.
    this.ctx.log.debug('interaction resumed', { handle: owner.handle, round: claims.r, answered: shaped.size, missing: missing.length });
    // A runner waits here for its session's runner slot: its answers wake its legacy handler.
    await interaction.stopWaiting();
    for (const [key, result] of shaped) interaction.answer(key, result);
    owner.answersReceived(claims.r, answers);
    const call: RunningCall = { owner, interaction, front: { ...front, roots } };
    for (const mode of this.modes()) {
      const taken = mode.onResumed?.(call);
      if (taken !== undefined) await taken;
    }
    return this.run(call);
  }

  /** Sends the call on `lease` under a new owner; `run` then waits for its first stop. */
  open(front: BoundCall, lease: SessionLease, opts: OpenOptions = {}): RunningCall {
    const { log, clock } = this.ctx;
    const interaction = new Interaction(randomUUID(), { method: front.method, params: front.params }, log, clock, this.ctx.dropNotification);
    const owner = this.ctx.own(interaction, front.principal, opts.origin ?? this.ctx.telemetry.traceOrigin(front.record));
    interaction.start(lease, front.record);
    const { method, params, capabilities, roots, rootsRound } = front;
    owner.started({ handle: owner.handle, method, params, mode: 'hold', capabilities, roots, ...(rootsRound ? { rootsRound } : {}), ...opts.start });
    return { owner, interaction, front };
  }

  /** One round: the call's events until one of them answers the front request. */
  async run(call: RunningCall): Promise<JsonObject> {
    const { owner, interaction, front } = call;
    this.active.add(owner);
    interaction.attachFront(front.sink);
    try {
      return await this.rounds(call);
    } catch (err) {
      // A failure no mode turned into an end (the sealer or the store failing while a round is
      // asked): the call is neither ended nor waiting, and nothing else would ever release it.
      // Its words stay in this log line: the legacy server and the audit hear only that the proxy failed.
      if (!owner.ended && !owner.suspended) {
        this.ctx.log.warn('the call failed in the proxy and was ended', { handle: owner.handle, error: (err as Error).message });
        owner.end({ reason: 'cancelled', why: 'the proxy failed while running the call' });
      }
      throw err;
    } finally {
      // Progress and log lines the legacy server sent before its answer go out before it.
      await interaction.detachFront();
      this.active.delete(owner);
    }
  }

  private rounds(call: RunningCall): Promise<JsonObject> {
    const { interaction, front } = call;
    const modes = this.modes();
    const limits = this.ctx.limits();
    const timeoutMs = Math.min(limits.callTimeoutMs, ...modes.map((m) => m.roundMs?.(call) ?? Number.POSITIVE_INFINITY));
    return drive(interaction, {
      wait: () => ({ gatherMs: this.ctx.limits().gatherWindowMs, timeoutMs, signal: front.signal }),
      held: () => first(modes, (m) => m.pending?.(call)),
      turn: async (stop, held) => {
        let next = stop;
        if (stop.kind === 'input' && !held) {
          const rest = answerRootsLocally(interaction, stop.pending, {
            declaresRoots: declaresRoots(front.capabilities),
            known: front.roots,
            operatorRoots: this.ctx.opts.sessions.operatorRoots(),
          });
          // Nothing left: everything was answered here and the call goes on.
          if (rest.length === 0) return GO_ON;
          next = { kind: 'input', pending: rest };
        }
        for (const mode of modes) {
          const taken = mode.onStop?.(call, next);
          if (taken !== undefined) return await taken;
        }
        throw new Error(`no mode handled a call's ${next.kind}`);
      },
    });
  }

  /** What no other mode took: the call's end, or its next held round. */
  onStop(call: RunningCall, stop: Stop): Promise<JsonObject> {
    return this.settle(call, stop);
  }

  private async settle(call: RunningCall, stop: Stop): Promise<JsonObject> {
    const { owner } = call;
    switch (stop.kind) {
      case 'complete':
        owner.end({ reason: 'completed', result: stop.result });
        return stop.result;
      case 'error': {
        const failure = classifyFailure(stop.error, stop.lost);
        if (failure.kind === 'error') {
          owner.end({ reason: 'completed', error: failure.error });
          throw new UpstreamError(failure.error);
        }
        owner.end({ reason: failure.kind === 'lost' ? 'lost' : 'completed' });
        throw new ProxyError('upstream_failed', 'legacy_session_lost', failure.message);
      }
      case 'input':
        return this.ask(call, stop.pending);
      case 'timeout':
        owner.end({ reason: 'cancelled', why: 'the proxy call timeout fired' });
        throw new ProxyError(
          'timeout',
          'call_timeout',
          `the legacy server did not answer within ${this.ctx.limits().callTimeoutMs / 1000}s (--call-timeout); the call was cancelled`,
        );
      case 'aborted':
        owner.end({ reason: 'cancelled', why: 'the client cancelled the request' });
        throw new ProxyError('upstream_failed', 'client_cancelled', 'the request was cancelled by the client');
    }
  }

  /** Suspends the call in hold mode: its requestState names this instance, and its retry resumes it here. */
  async ask(call: RunningCall, pending: PendingInput[]): Promise<JsonObject> {
    const { owner, interaction, front } = call;
    this.refuseUndeclared(call, pending);
    const limits = this.ctx.limits();
    takeWaitingSlot(interaction, limits.gatherWindowMs, (why) => owner.end({ reason: 'cancelled', why }));
    const round = interaction.nextRound();
    const expiresAt = this.ctx.clock.now() + limits.interactionTtlMs;
    const requestState = await this.ctx.opts.sealer.seal(heldClaims(this.ctx.opts, owner.handle, round, front), expiresAt);
    owner.suspend(round, expiresAt, front, pending);
    interaction.onGaveUp = (waitedMs) => this.gaveUp(owner, waitedMs);
    const inputs = pending.map((p) => p.key);
    // A question of this round its server withdrew while the round was being answered: the call
    // ends as given up once the round has gone out, as it would had it been withdrawn a moment later.
    const withdrawn = interaction.withdrawnIn(inputs);
    if (withdrawn !== undefined) this.ctx.clock.after(0, () => this.gaveUp(owner, withdrawn));
    this.ctx.log.debug('interaction suspended', { handle: owner.handle, principal: principalTag(front.principal), round, inputs });
    return inputRequired(pending, requestState);
  }

  /** Throws `capability_missing`, the call ended, when a request needs a capability the front did not declare. */
  refuseUndeclared(call: RunningCall, pending: PendingInput[]): void {
    refuseUndeclared(call.interaction, call.front.capabilities, pending, (why) => call.owner.end({ reason: 'cancelled', why }));
  }

  /** A held call whose legacy server stopped waiting ends now; its retry learns after how long. */
  private gaveUp(owner: InteractionOwner, waitedMs: number): void {
    if (!owner.suspended) return;
    this.ctx.log.info('the legacy server gave up waiting for the user; the held call ends', { handle: owner.handle, waitedMs });
    owner.end({ reason: 'legacy_gave_up', why: 'the legacy server gave up waiting', waitedMs });
  }
}

/** The first of `modes` for which `f` says something. */
function first<T>(modes: readonly Mode[], f: (mode: Mode) => T | undefined): T | undefined {
  for (const mode of modes) {
    const found = f(mode);
    if (found !== undefined) return found;
  }
  return undefined;
}
