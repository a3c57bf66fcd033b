// The roots round as a mode: a client that declares roots, in front of a legacy server that reads
// roots at initialize, is asked for its roots before the call is sent (roots-round.ts). The round
// is suspended like a held round, holds no legacy session, and its retry sends the call, held, on
// a session bound to the roots it brought.
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../protocol/json.js';
import { declaresRoots, planRoots, ROOTS_ROUND_KEY } from '../../protocol/roots.js';
import type { BoundCall, FrontCall } from '../front-call.js';
import type { InteractionOwner } from '../owner.js';
import { leaseForCall } from '../ports.js';
import { heldClaims, goneError } from '../retry.js';
import { readRootsAnswer, RootsRound, rootsRoundResult } from '../roots-round.js';
import type { HeldCalls } from './held-call.js';
import type { Mode, ModeContext, ResumeTarget } from './mode.js';

const ROOTS_QUESTION = { key: ROOTS_ROUND_KEY, method: 'roots/list', request: { method: 'roots/list' } } as const;

export class RootsMode implements Mode {
  constructor(
    private readonly ctx: ModeContext,
    private readonly calls: HeldCalls,
  ) {}

  begin(front: BoundCall): Promise<JsonObject | undefined> | undefined {
    if (!declaresRoots(front.capabilities)) return undefined;
    // Right after start the proxy may not know yet whether the server reads roots at initialize.
    const known = this.ctx.opts.sessions.rootsKnown?.();
    if (known === undefined) return needsRootsRound(this.ctx, front) ? askRoots(this.ctx, front) : undefined;
    return known.then(() => (needsRootsRound(this.ctx, front) ? askRoots(this.ctx, front) : undefined));
  }

  resume(front: FrontCall, target: ResumeTarget): Promise<JsonObject> | undefined {
    const owner = target.owner;
    if (owner === undefined || !(owner.subject instanceof RootsRound)) return undefined;
    return this.resumeRound(front, target, owner);
  }

  private async resumeRound(front: FrontCall, target: ResumeTarget, owner: InteractionOwner): Promise<JsonObject> {
    const roots = readRootsAnswer(front.inputResponses, front.droppedInputKeys);
    const claimed = owner.claim(target.claims.r, this.ctx.clock.now());
    if (!claimed.ok) throw goneError(claimed);
    if (roots === undefined) return askRoots(this.ctx, front, owner);
    owner.rootsAnswered();
    const lease = await leaseForCall(this.ctx.opts.sessions, front, roots);
    return this.calls.run(this.calls.open({ ...front, roots, rootsRound: true }, lease, { origin: owner.origin }));
  }
}

/** Whether the call must wait for the client's roots: it declares them, and the server reads roots outside calls. */
export function needsRootsRound(ctx: ModeContext, front: FrontCall): boolean {
  const serverAsksOutsideCalls = ctx.opts.sessions.asksRootsOutsideCalls();
  return planRoots({ declaresRoots: declaresRoots(front.capabilities), serverAsksOutsideCalls, known: undefined }).kind === 'ask';
}

/** Suspends a roots round (a new one, or `owner`'s again): the client answers roots/list, and its retry starts the call. */
export async function askRoots(ctx: ModeContext, front: FrontCall, owner?: InteractionOwner): Promise<JsonObject> {
  const own = owner ?? ctx.own(new RootsRound(randomUUID()), front.principal, ctx.telemetry.traceOrigin(front.record));
  const round = own.subject as RootsRound;
  const r = round.nextRound();
  const expiresAt = ctx.clock.now() + ctx.limits().interactionTtlMs;
  const requestState = await ctx.opts.sealer.seal(heldClaims(ctx.opts, round.handle, r, front), expiresAt);
  own.suspend(r, expiresAt, front, [ROOTS_QUESTION]);
  ctx.log.debug('asking the client for its roots before the call', { handle: round.handle, round: r });
  return rootsRoundResult(requestState);
}
