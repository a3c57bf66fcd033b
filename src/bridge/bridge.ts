// The MRTR bridge: runs an interactive front request (tools/call, prompts/get, resources/read)
// against a legacy server, turning the server's mid-call requests into `input_required` rounds and
// resuming the suspended call when the retry arrives.
import { randomUUID } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { partitionAnswers } from '../protocol/answers.js';
import { describeCapabilities, legacyCapabilitiesFor, missingCapabilities } from '../protocol/capabilities.js';
import { JSONRPC, LEGACY, ProxyError, UpstreamError, type WireError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/json.js';
import { translateLegacyError } from '../protocol/legacy-errors.js';
import { declaresRoots, planRoots } from '../protocol/roots.js';
import type { Clock } from '../runtime/clock.js';
import { fingerprint } from '../state/fingerprint.js';
import { principalTag } from '../state/principal.js';
import type { StateClaims } from '../state/seal.js';
import { NO_TELEMETRY, type TraceOrigin, type UpstreamTelemetry } from '../telemetry/ports.js';
import type { BoundCall, BridgeLimits, BridgeOptions, FrontCall } from './front-call.js';
import { Interaction, type PendingInput } from './interaction.js';
import type { LeaseMode, SessionLease } from './ports.js';
import { PrincipalLoad } from './principal-load.js';
import { recoveryFor } from './recovery.js';
import { openState, shapeAnswers } from './retry-checks.js';
import { answerWithOperatorRoots, readRootsAnswer, RootsRound, rootsRoundResult } from './roots-round.js';
import { MISS_MESSAGES, SuspensionTable, type EndReason } from './suspensions.js';

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
  private readonly telemetry: UpstreamTelemetry;
  /** Each interaction's first-round span, which its later rounds link to. */
  private readonly origins = new WeakMap<Interaction | RootsRound, TraceOrigin>();

  constructor(private readonly opts: BridgeOptions) {
    this.clock = opts.clock;
    this.limits = { ...opts.limits };
    this.telemetry = opts.telemetry ?? NO_TELEMETRY;
    this.stopSweeper = this.clock.every(EXPIRY_SWEEP_MS, () => this.expire());
  }

  get suspendedCount(): number {
    return this.suspended.size;
  }

  /** Interactions a front request is attached to (waiting on the legacy server). */
  get runningCount(): number {
    return this.active.size;
  }

  async call(front: FrontCall): Promise<JsonObject> {
    const state = front.requestState;
    // A retry refused for its requestState: `data.reason` says why (recovery.ts).
    const resume = (token: string) =>
      this.resume(front, token).catch((err: unknown) => {
        if (err instanceof ProxyError && (err.code === 'state_invalid' || err.code === 'interaction_gone'))
          this.telemetry.stateRejected(String(err.data?.['reason']));
        throw err;
      });
    const work = () => (state === undefined ? this.begin(front) : resume(state));
    return this.load.run(front.principal, state === undefined ? 'begin' : 'resume', this.limits, work);
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
    for (const i of [...this.suspended.items(), ...this.active]) this.finish(i, 'cancelled', 'the proxy is shutting down');
  }

  private async begin(front: FrontCall): Promise<JsonObject> {
    this.telemetry.roundServed(0, undefined);
    if (this.needsRootsRound(front)) return this.askRoots(front, new RootsRound(randomUUID()));
    const lease = await this.opts.sessions.acquire(legacyCapabilitiesFor(front.capabilities), this.leaseMode(front));
    // The session just opened may be the first to show that the server asks for roots at initialize.
    if (this.needsRootsRound(front)) {
      lease.release();
      return this.askRoots(front, new RootsRound(randomUUID()));
    }
    return this.startCall(front, lease);
  }

  /** Shared where the call's legacy requests can be attributed to it (upstream/ask-learning.ts). */
  private leaseMode = (front: FrontCall): LeaseMode => this.opts.sessions.leaseModeFor?.(front.method, front.params) ?? 'exclusive';

  private needsRootsRound(front: FrontCall): boolean {
    const facts = { declaresRoots: declaresRoots(front.capabilities), serverAsksOutsideCalls: this.opts.sessions.asksRootsOutsideCalls(), known: undefined };
    return planRoots(facts).kind === 'ask';
  }

  /** `origin`: the span of the interaction's first round (this request's, unless a roots round came first). */
  private startCall(call: BoundCall, lease: SessionLease, origin = this.telemetry.traceOrigin()): Promise<JsonObject> {
    const interaction = new Interaction(randomUUID(), { method: call.method, params: call.params }, this.opts.log, this.clock);
    if (origin) this.origins.set(interaction, origin);
    interaction.start(lease);
    this.opts.observer?.onStart({ handle: interaction.handle, method: call.method, params: call.params, mode: 'hold' });
    return this.run(interaction, call);
  }

  /** Suspends a roots round: the client answers roots/list, and its retry starts the call. */
  private async askRoots(front: FrontCall, round: RootsRound): Promise<JsonObject> {
    const r = round.nextRound();
    const expiresAt = this.clock.now() + this.limits.interactionTtlMs;
    const requestState = await this.opts.sealer.seal(this.claims(round.handle, r, front), expiresAt);
    this.suspended.put(round.handle, round, r, expiresAt);
    const origin = this.origins.get(round) ?? this.telemetry.traceOrigin();
    if (origin) this.origins.set(round, origin);
    this.telemetry.inputRequired(front.method, ['roots/list']);
    this.opts.log.debug('asking the client for its roots before the call', { handle: round.handle, round: r });
    return rootsRoundResult(requestState);
  }

  private async resumeRoots(front: FrontCall, round: RootsRound, r: number): Promise<JsonObject> {
    const roots = readRootsAnswer(front.inputResponses, front.droppedInputKeys);
    const claimed = this.suspended.claim(round.handle, r, this.clock.now());
    if (!claimed.ok) throw new ProxyError('interaction_gone', MISS_MESSAGES[claimed.miss], recoveryFor(claimed.miss));
    if (roots === undefined) return this.askRoots(front, round);
    const lease = await this.opts.sessions.acquire(legacyCapabilitiesFor(front.capabilities), this.leaseMode(front), roots);
    return this.startCall({ ...front, roots }, lease, this.origins.get(round));
  }

  private async resume(front: FrontCall, token: string): Promise<JsonObject> {
    const claims = await openState(this.opts.sealer, token, {
      instance: this.opts.instance,
      principal: front.principal,
      fingerprint: fingerprint(front.identity),
    });
    const seen = this.suspended.peek(claims.h, claims.r, this.clock.now());
    if (!seen.ok) throw new ProxyError('interaction_gone', MISS_MESSAGES[seen.miss], recoveryFor(seen.miss));
    this.telemetry.roundServed(claims.r, this.origins.get(seen.item));
    if (seen.item instanceof RootsRound) return this.resumeRoots(front, seen.item, claims.r);
    const interaction = seen.item;
    const call: BoundCall = { ...front, roots: claims.rt };
    // Validate before consuming the round: a malformed retry loses nothing and may be sent again.
    const asked = interaction.unanswered();
    const split = partitionAnswers(asked, front.inputResponses, front.droppedInputKeys);
    if (!split.ok) throw new ProxyError('input_invalid', split.message, { ...(split.key ? { key: split.key } : {}), action: 'fix' });
    const shaped = shapeAnswers(asked, split.answers, interaction.session?.negotiatedVersion ?? '2025-11-25');
    const claimed = this.suspended.claim(claims.h, claims.r, this.clock.now());
    if (!claimed.ok) throw new ProxyError('interaction_gone', MISS_MESSAGES[claimed.miss], recoveryFor(claimed.miss));
    this.load.settle(claims.h);
    // The principal's hash is on the 'interaction suspended' line of the same handle.
    this.opts.log.debug('interaction resumed', { handle: interaction.handle, round: claims.r, answered: shaped.size, missing: split.missing.length });
    interaction.stopWaiting();
    for (const [key, result] of shaped) interaction.answer(key, result);
    this.opts.observer?.onAnswers({ handle: interaction.handle, round: claims.r, answers: split.answers });

    const consent = interaction.urlConsent();
    if (consent.kind === 'declined') {
      this.finish(interaction, 'completed', `the user did not complete the URL elicitation (${consent.action})`);
      throw new ProxyError('declined', `the user did not complete the URL elicitation the server requires (${consent.action}): ${consent.message}`);
    }
    if (consent.kind === 'granted') {
      try {
        interaction.start(await this.opts.sessions.acquire(legacyCapabilitiesFor(front.capabilities), this.leaseMode(front), call.roots));
      } catch (err) {
        this.finish(interaction, 'lost');
        throw err;
      }
    }
    return this.run(interaction, call);
  }

  /** One round: wait for the legacy call's next event and turn it into the front's answer. */
  private async run(interaction: Interaction, front: BoundCall): Promise<JsonObject> {
    this.active.add(interaction);
    interaction.attachFront(front.sink);
    try {
      return await this.decide(interaction, front);
    } finally {
      // Progress and log lines the legacy server sent before its answer go out before it.
      await interaction.detachFront();
      this.active.delete(interaction);
    }
  }

  private async decide(interaction: Interaction, front: BoundCall): Promise<JsonObject> {
    const stop = interaction.awaitingUrlConsent
      ? { kind: 'input' as const, pending: interaction.unanswered() }
      : await interaction.next({ gatherMs: this.limits.gatherWindowMs, timeoutMs: this.limits.callTimeoutMs, signal: front.signal });
    switch (stop.kind) {
      case 'complete':
        this.finish(interaction, 'completed', undefined, { result: stop.result });
        return stop.result;
      case 'error':
        return await this.failed(interaction, front, stop.error, stop.lost);
      case 'input': {
        const rest = answerWithOperatorRoots(interaction, stop.pending, declaresRoots(front.capabilities), this.opts.sessions.operatorRoots());
        return rest.length === 0 ? await this.decide(interaction, front) : await this.ask(interaction, front, rest);
      }
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
    // Never forward what this request did not declare (2026-07-28 capabilities are per request).
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
    this.load.wait(front.principal, interaction.handle);
    this.opts.observer?.onRound({ handle: interaction.handle, round, asked: pending.map((p) => ({ key: p.key, ...p.request })) });
    this.telemetry.inputRequired(
      front.method,
      pending.map((p) => p.method),
    );
    this.opts.log.debug('interaction suspended', {
      handle: interaction.handle,
      principal: principalTag(front.principal),
      round,
      inputs: pending.map((p) => p.key),
    });
    const inputRequests: JsonObject = {};
    for (const p of pending) inputRequests[p.key] = p.request;
    return { resultType: 'input_required', inputRequests, requestState };
  }

  /** What a round's requestState seals; a call's roots, once given, ride in every later one. */
  private claims(handle: string, round: number, call: BoundCall): StateClaims {
    return { h: handle, i: this.opts.instance, r: round, p: call.principal, fp: fingerprint(call.identity), ...(call.roots && { rt: [...call.roots] }) };
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
    this.finish(interaction, 'completed', undefined, { error: translated.error });
    throw new UpstreamError(translated.error);
  }

  private finish(interaction: Interaction | RootsRound, reason: EndReason, why?: string, outcome: { result?: JsonObject; error?: WireError } = {}): void {
    this.suspended.end(interaction.handle, reason);
    this.telemetry.interactionEnded(reason, interaction.round);
    this.load.settle(interaction.handle);
    interaction.end(why ?? reason);
    this.opts.observer?.onEnd({ handle: interaction.handle, reason, ...(why === undefined ? {} : { why }), ...outcome });
  }
}
