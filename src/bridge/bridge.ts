// The MRTR bridge: runs an interactive front request (tools/call, prompts/get, resources/read)
// against a legacy server, turning the server's mid-call requests into `input_required` rounds and
// resuming the suspended call when the retry arrives.
import { randomUUID } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeCapabilities, legacyCapabilitiesFor, missingCapabilities } from '../protocol/capabilities.js';
import { JSONRPC, LEGACY, ProxyError, UpstreamError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/json.js';
import { translateLegacyError } from '../protocol/legacy-errors.js';
import { declaresRoots, planRoots } from '../protocol/roots.js';
import type { Clock } from '../runtime/clock.js';
import { fingerprint } from '../state/fingerprint.js';
import type { StateClaims } from '../state/seal.js';
import type { SessionLease } from './ports.js';
import type { RecordEntry } from '../protocol/replay-match.js';
import type { BoundCall, BridgeLimits, BridgeOptions, FrontCall } from './bridge-types.js';
import { Interaction, type PendingInput, type Stop } from './interaction.js';
import { openState } from './open-state.js';
import { goneError } from './recovery.js';
import { answerWithOperatorRoots, readRootsAnswer, RootsRound, rootsRoundResult } from './roots-round.js';
import { takeReplayRecord } from './replay-retry.js';
import { ReplayRun, type ReplayContext } from './replay-run.js';
import { checkAnswers } from './check-answers.js';
import { chooseMode } from './choose-mode.js';
import { SuspensionTable, type EndReason } from './suspensions.js';

export type { BridgeLimits, BridgeOptions, FrontCall } from './bridge-types.js';

/** How often suspensions nobody resumed are looked for. */
const EXPIRY_SWEEP_MS = 1000;

export class Bridge {
  private readonly suspended = new SuspensionTable<Interaction | RootsRound>();
  private readonly active = new Set<Interaction>();
  private readonly clock: Clock;
  private readonly stopSweeper: () => void;
  private limits: BridgeLimits;
  private readonly replay: ReplayContext;

  constructor(private readonly opts: BridgeOptions) {
    this.clock = opts.clock;
    this.limits = { ...opts.limits };
    this.stopSweeper = this.clock.every(EXPIRY_SWEEP_MS, () => this.expire());
    this.replay = {
      ...opts,
      limits: () => this.limits,
      checkCapabilities: (interaction, front, pending) => this.checkCapabilities(interaction, front as BoundCall, pending),
      hold: (interaction, front, pending) => this.ask(interaction, front as BoundCall, pending),
    };
  }

  get suspendedCount(): number {
    return this.suspended.size;
  }

  async call(front: FrontCall): Promise<JsonObject> {
    if (front.requestState === undefined) return this.begin(front);
    const claims = await openState(this.opts.sealer, front.requestState, {
      instance: this.opts.instance,
      upstream: this.opts.upstream,
      principal: front.principal,
      fingerprint: fingerprint(front.identity),
    });
    if (claims.k === 'replay') return this.rerun({ ...front, roots: claims.rt }, await takeReplayRecord(claims, front, this.opts.ledger), claims.r + 1);
    return this.resume(front, claims);
  }

  /** Ends suspensions nobody resumed in time. */
  expire(): void {
    for (const interaction of this.suspended.expire(this.clock.now())) {
      this.opts.log.info('interaction expired', { handle: interaction.handle, round: interaction.round });
      interaction.end('the interaction expired');
    }
  }

  /** A reload: the new limits apply to new calls and from the next round of running ones. */
  reconfigure(limits: BridgeLimits): void {
    this.limits = { ...limits };
  }

  async close(): Promise<void> {
    this.stopSweeper();
    for (const i of [...this.suspended.items(), ...this.active]) i.end('the proxy is shutting down');
  }

  private async begin(front: FrontCall): Promise<JsonObject> {
    if (this.needsRootsRound(front)) return this.askRoots(front, new RootsRound(randomUUID()));
    if ((await chooseMode(front, this.limits.suspend, this.opts.toolHints, this.opts.log)).mode === 'replay') return this.rerun(front, [], 1);
    const lease = await this.opts.sessions.acquire(legacyCapabilitiesFor(front.capabilities), 'exclusive');
    // The session just opened may be the first to show that the server asks for roots at initialize.
    if (this.needsRootsRound(front)) {
      lease.release();
      return this.askRoots(front, new RootsRound(randomUUID()));
    }
    return this.startCall(front, lease);
  }

  private needsRootsRound(front: FrontCall): boolean {
    const facts = { declaresRoots: declaresRoots(front.capabilities), serverAsksOutsideCalls: this.opts.sessions.asksRootsOutsideCalls(), known: undefined };
    return planRoots(facts).kind === 'ask';
  }

  private startCall(call: BoundCall, lease: SessionLease, replay?: { record: RecordEntry[]; round: number }): Promise<JsonObject> {
    const interaction = new Interaction(randomUUID(), { method: call.method, params: call.params }, this.opts.log, this.clock);
    interaction.start(lease);
    return this.run(interaction, call, replay && new ReplayRun(interaction, replay.record, replay.round, this.replay));
  }

  /** Suspends a roots round: the client answers roots/list, and its retry starts the call (held). */
  private async askRoots(front: FrontCall, round: RootsRound): Promise<JsonObject> {
    const r = round.nextRound();
    const expiresAt = this.clock.now() + this.limits.interactionTtlMs;
    const requestState = await this.opts.sealer.seal(this.claims(round.handle, r, front), expiresAt);
    this.suspended.put(round.handle, round, r, expiresAt);
    this.opts.log.debug('asking the client for its roots before the call', { handle: round.handle, round: r });
    return rootsRoundResult(requestState);
  }

  private async resumeRoots(front: FrontCall, round: RootsRound, r: number): Promise<JsonObject> {
    const roots = readRootsAnswer(front.inputResponses, front.droppedInputKeys);
    const claimed = this.suspended.claim(round.handle, r, this.clock.now());
    if (!claimed.ok) throw goneError(claimed);
    if (roots === undefined) return this.askRoots(front, round);
    const lease = await this.opts.sessions.acquire(legacyCapabilitiesFor(front.capabilities), 'exclusive', roots);
    return this.startCall({ ...front, roots }, lease);
  }

  /** Runs a replayed call (again) on any session, answering from `record` what it can. */
  private async rerun(call: BoundCall, record: RecordEntry[], round: number): Promise<JsonObject> {
    const lease = await this.opts.sessions.acquire(legacyCapabilitiesFor(call.capabilities), 'exclusive', call.roots);
    return this.startCall(call, lease, { record, round });
  }

  private async resume(front: FrontCall, claims: StateClaims): Promise<JsonObject> {
    const seen = this.suspended.peek(claims.h, claims.r, this.clock.now());
    if (!seen.ok) throw goneError(seen);
    if (seen.item instanceof RootsRound) return this.resumeRoots(front, seen.item, claims.r);
    const interaction = seen.item;
    const call: BoundCall = { ...front, roots: claims.rt };
    // Validate before consuming the round: a malformed retry loses nothing and may be sent again.
    const { shaped, missing } = checkAnswers(interaction.unanswered(), front, interaction.session?.negotiatedVersion ?? '2025-11-25');
    const claimed = this.suspended.claim(claims.h, claims.r, this.clock.now());
    if (!claimed.ok) throw goneError(claimed);
    this.opts.log.debug('interaction resumed', { handle: interaction.handle, round: claims.r, answered: shaped.size, missing: missing.length });
    interaction.stopWaiting();
    for (const [key, result] of shaped) interaction.answer(key, result);

    const consent = interaction.urlConsent();
    if (consent.kind === 'declined') {
      this.finish(interaction, 'completed');
      throw new ProxyError('declined', `the user did not complete the URL elicitation the server requires (${consent.action}): ${consent.message}`);
    }
    if (consent.kind === 'granted') {
      try {
        interaction.start(await this.opts.sessions.acquire(legacyCapabilitiesFor(front.capabilities), 'exclusive', call.roots));
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
    for (;;) {
      const stop = interaction.awaitingUrlConsent
        ? { kind: 'input' as const, pending: interaction.unanswered() }
        : await interaction.next({ gatherMs: this.limits.gatherWindowMs, timeoutMs: this.limits.callTimeoutMs, signal: front.signal });
      if (stop.kind === 'input' && !interaction.awaitingUrlConsent) {
        const rest = answerWithOperatorRoots(interaction, stop.pending, declaresRoots(front.capabilities), this.opts.sessions.operatorRoots());
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
      case 'complete':
        this.finish(interaction, 'completed');
        return stop.result;
      case 'error':
        return await this.failed(interaction, front, stop.error, stop.lost);
      case 'input':
        return await this.ask(interaction, front, stop.pending);
      case 'timeout':
        this.finish(interaction, 'cancelled', 'the proxy call timeout fired');
        throw new ProxyError(
          'timeout',
          `the legacy server did not answer within ${this.limits.callTimeoutMs / 1000}s (--call-timeout); the call was cancelled`,
        );
      case 'aborted':
        this.finish(interaction, 'cancelled', 'the client cancelled the request');
        throw new ProxyError('upstream_failed', 'the request was cancelled by the client');
    }
  }

  private async ask(interaction: Interaction, front: BoundCall, pending: PendingInput[]): Promise<JsonObject> {
    this.checkCapabilities(interaction, front, pending);
    if (!interaction.startWaiting()) {
      this.finish(interaction, 'cancelled', 'too many interactions are waiting for clients');
      throw new ProxyError(
        'overloaded',
        'too many calls are waiting for input from their clients: the legacy sessions they may hold (--waiting-share of --max-sessions) are all taken, so this call was cancelled rather than left waiting; try again later',
        { reason: 'waiting_limit' },
      );
    }
    const round = interaction.nextRound();
    const expiresAt = this.clock.now() + this.limits.interactionTtlMs;
    const requestState = await this.opts.sealer.seal(this.claims(interaction.handle, round, front), expiresAt);
    this.suspended.put(interaction.handle, interaction, round, expiresAt);
    interaction.onGaveUp = (waitedMs) => this.gaveUp(interaction, waitedMs);
    this.opts.log.debug('interaction suspended', { handle: interaction.handle, round, inputs: pending.map((p) => p.key) });
    const inputRequests: JsonObject = {};
    for (const p of pending) inputRequests[p.key] = p.request;
    return { resultType: 'input_required', inputRequests, requestState };
  }

  /** What a held round's requestState seals: its owner, and the call's roots once given (every later round). */
  private claims(handle: string, round: number, call: BoundCall): StateClaims {
    const owner = this.opts.advertiseUrl === undefined ? {} : { o: this.opts.advertiseUrl };
    return {
      h: handle,
      i: this.opts.instance,
      r: round,
      p: call.principal,
      fp: fingerprint(call.identity),
      ...owner,
      ...(call.roots && { rt: [...call.roots] }),
    };
  }

  /** Never forward what this request did not declare (2026-07-28 capabilities are per request). */
  private checkCapabilities(interaction: Interaction, front: BoundCall, pending: PendingInput[]): void {
    for (const p of pending) {
      const required = missingCapabilities(p.method, p.request.params, front.capabilities);
      if (!required) continue;
      const names = describeCapabilities(required);
      interaction.refuse(
        p.key,
        p.method === 'elicitation/create' ? JSONRPC.INVALID_PARAMS : JSONRPC.METHOD_NOT_FOUND,
        `the client did not declare the ${names} capability`,
      );
      this.finish(interaction, 'cancelled', `undeclared capability ${names}`);
      throw new ProxyError(
        'capability_missing',
        `the legacy server asked for ${p.method}, which needs the ${names} client capability this request did not declare`,
        { requiredCapabilities: required },
      );
    }
  }

  private async failed(interaction: Interaction, front: BoundCall, error: unknown, lost: string | undefined): Promise<JsonObject> {
    if (lost !== undefined || (error instanceof McpError && error.code === LEGACY.CONNECTION_CLOSED)) {
      this.finish(interaction, 'lost');
      throw new ProxyError('upstream_failed', `the legacy server session ended during the call (${lost || 'connection closed'})`);
    }
    if (!(error instanceof McpError)) {
      this.finish(interaction, 'lost');
      throw new ProxyError('upstream_failed', `the legacy server failed during the call: ${(error as Error)?.message ?? String(error)}`);
    }
    const translated = translateLegacyError(error.code, error.message, error.data);
    if (translated.kind === 'url_required') {
      interaction.awaitUrlConsent(translated.message, translated.elicitations as JsonObject[]);
      return this.ask(interaction, front, interaction.unanswered());
    }
    this.finish(interaction, 'completed');
    throw new UpstreamError(translated.error);
  }

  /** A held call whose legacy server stopped waiting ends now; its retry learns after how long. */
  private gaveUp(interaction: Interaction, waitedMs: number): void {
    if (!this.suspended.has(interaction.handle)) return;
    this.opts.log.info('the legacy server gave up waiting for the user; the held call ends', { handle: interaction.handle, waitedMs });
    this.suspended.end(interaction.handle, 'legacy_gave_up', waitedMs);
    interaction.end('the legacy server gave up waiting');
  }

  private finish(interaction: Interaction | RootsRound, reason: EndReason, why?: string): void {
    this.suspended.end(interaction.handle, reason);
    interaction.end(why ?? reason);
  }
}
