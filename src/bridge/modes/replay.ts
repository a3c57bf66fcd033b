// Replay as a mode: a call the suspend policy replays (suspend-mode.ts) runs once per round on any
// session, answering from its sealed record what the legacy server asks again (replay-run.ts), and
// a replay state's retry is checked and consumed in the single-use ledger (replay-retry.ts) before
// the call runs again. Each run is an interaction of its own, ended `let_go` when it asks. A run
// whose questions changed goes on held, and in `auto` its tool is held from then on.
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../protocol/json.js';
import type { ConsumedLedger } from '../../state/ledger.js';
import { GO_ON } from '../drive.js';
import type { BoundCall, FrontCall } from '../front-call.js';
import type { PendingInput, Stop } from '../interaction.js';
import { leaseForCall } from '../ports.js';
import { type Rerun, replayRetry } from '../replay-retry.js';
import { type ReplayContext, ReplayRun } from '../replay-run.js';
import { chooseMode, operatorChoice } from '../suspend-mode.js';
import { UnstableQuestions } from '../unstable-questions.js';
import type { HeldCalls } from './held-call.js';
import type { Mode, ModeContext, ResumeTarget, RunningCall } from './mode.js';

export class ReplayMode implements Mode {
  /** What runs need of the bridge, once. */
  private readonly runs: ReplayContext;
  /** The single-use ledger, its failures logged here (the client is told only that the store is unreachable). */
  private readonly ledger: Pick<ConsumedLedger, 'consume'>;
  /** Each run of a call, by the call it serves (set when the call opens). */
  private readonly replays = new WeakMap<RunningCall['owner'], ReplayRun>();
  /** Tools (prompts, reads) whose questions changed when they ran again: held from then on in `auto`. */
  private readonly unstable = new UnstableQuestions();

  constructor(
    private readonly ctx: ModeContext,
    private readonly calls: HeldCalls,
  ) {
    const { opts } = ctx;
    this.runs = { sealer: opts.sealer, instance: opts.instance, upstream: opts.upstream, log: ctx.log, clock: ctx.clock, limits: () => ctx.limits() };
    this.ledger = {
      consume: (id, expiresAtMs) =>
        opts.ledger.consume(id, expiresAtMs).catch((err: unknown) => {
          ctx.log.warn('state store command failed', { error: (err as Error).message });
          throw err;
        }),
    };
  }

  async begin(front: BoundCall): Promise<JsonObject | undefined> {
    const unstable = this.unstable.has(front.method, front.params);
    const { mode } = await chooseMode(front, this.ctx.limits().suspend, this.ctx.opts.toolHints, this.ctx.log, unstable);
    if (mode !== 'replay') return undefined;
    return this.rerun({ call: front, record: [], round: 1, callId: randomUUID(), answers: new Map() });
  }

  resume(front: FrontCall, target: ResumeTarget): Promise<JsonObject> | undefined {
    if (target.owner !== undefined || target.claims.k !== 'replay') return undefined;
    return replayRetry(target.claims, front, this.ledger, this.ctx.telemetry).then((rerun) => this.rerun(rerun));
  }

  /** A run's questions: answered from the record where they can be; the rest let the call go (or hold it). */
  onStop(call: RunningCall, stop: Stop): Promise<JsonObject | typeof GO_ON> | undefined {
    const run = this.replays.get(call.owner);
    if (run === undefined || run.holding || stop.kind !== 'input') return undefined;
    return run.onInput(stop.pending, call.front).then((answer) => answer ?? GO_ON);
  }

  /** Runs a replayed call (again) on any session, answering from its record what it can. */
  private async rerun(rerun: Rerun): Promise<JsonObject> {
    const lease = await leaseForCall(this.ctx.opts.sessions, rerun.call, rerun.call.roots);
    const call = this.calls.open(rerun.call, lease, {
      start: {
        mode: 'replay',
        replay: { call: rerun.callId, run: rerun.round, answers: rerun.answers },
        recorded: rerun.record,
        roundsBefore: rerun.round - 1,
      },
    });
    const replayCall = {
      ...call,
      refuseUndeclared: (pending: PendingInput[]) => this.calls.refuseUndeclared(call, pending),
      hold: (pending: PendingInput[]) => this.calls.ask(call, pending),
      questionsChanged: () => this.questionsChanged(rerun.call),
    };
    this.replays.set(call.owner, new ReplayRun(replayCall, rerun.record, rerun.round, rerun.callId, this.runs));
    return this.calls.run(call);
  }

  /** In `auto`, a call whose questions changed teaches that its tool is held from now on; the operator's choice stays. */
  private questionsChanged(front: BoundCall): void {
    if (operatorChoice(front.method, front.identity.target, this.ctx.limits().suspend) !== undefined) return;
    if (this.unstable.learn(front.method, front.params)) {
      this.ctx.log.info('its questions change between runs: its calls are held from now on', { method: front.method, target: front.identity.target });
    }
  }
}
