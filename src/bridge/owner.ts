// The one owner of an interaction, from its first round to its end. Whatever the mode (held,
// replay, roots round, legacy task, hosted task, URL consent), the interaction is suspended,
// resumed and ended here, and every way it ends (completed, failed, expired, let go, handed over
// to a task, cancelled, lost, given up by the legacy server) releases what it holds exactly once:
// its suspension (a tombstone in its place, so a late retry learns why it is gone), its place in
// the principal's waiting load, and its legacy call with the call's lease and waiting share. Each
// step is told as one event (interaction-events.ts); an end after the end changes nothing.
import type { WireError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/json.js';
import type { FrontRecord, TraceOrigin } from '../telemetry/ports.js';
import type { AskedInput, EndReason, InteractionListener, StartInfo } from './interaction-events.js';
import type { Interaction } from './interaction.js';
import type { PrincipalLoad } from './principal-load.js';
import type { RootsRound } from './roots-round.js';
import type { MissResult, EndReason as TombstoneReason, SuspensionTable } from './suspensions.js';

/** What every owner of one bridge shares. */
export interface OwnerDeps {
  suspended: SuspensionTable<InteractionOwner>;
  load: PrincipalLoad;
  emit: InteractionListener;
}

/** How an interaction ends: why (for its legacy call and the audit), what it answered, how long a legacy server waited before it gave up. */
export interface Ending {
  reason: EndReason;
  why?: string | undefined;
  result?: JsonObject;
  error?: WireError;
  waitedMs?: number;
}

/**
 * What a late retry of an ended interaction is told (suspensions.ts MISS_MESSAGES): a call handed
 * over to a task is over as a call; a run let go for replay is never retried by its handle (the
 * retry names a state of its own), and its legacy call was cancelled.
 */
const TOMBSTONE: Record<EndReason, TombstoneReason> = {
  completed: 'completed',
  expired: 'expired',
  cancelled: 'cancelled',
  lost: 'lost',
  legacy_gave_up: 'legacy_gave_up',
  let_go: 'cancelled',
  task: 'completed',
};

/** The front request whose answer asks: its method and telemetry record. */
type AskingFront = { record?: FrontRecord | undefined; method: string };

export class InteractionOwner {
  private over = false;

  /**
   * @param subject the legacy call (Interaction), or the roots round asked before it is sent
   * @param origin the span of the interaction's first round, which its later rounds link to
   */
  constructor(
    readonly subject: Interaction | RootsRound,
    readonly principal: string,
    private readonly deps: OwnerDeps,
    readonly origin?: TraceOrigin,
  ) {}

  get handle(): string {
    return this.subject.handle;
  }

  get ended(): boolean {
    return this.over;
  }

  /** The legacy call was sent. */
  started(start: StartInfo): void {
    this.deps.emit({ type: 'started', handle: this.handle, start });
  }

  /**
   * Round `round` asks the client for `asked`: the interaction waits in the suspension table until
   * `expiresAt` and, a legacy call, counts as one of its principal's waiting interactions.
   */
  suspend(round: number, expiresAt: number, front: AskingFront, asked: readonly AskedInput[]): void {
    this.deps.suspended.put(this.handle, this, round, expiresAt);
    const rootsRound = !('call' in this.subject);
    if (!rootsRound) this.deps.load.wait(this.principal, this.handle);
    this.asked(round, front, asked, rootsRound);
  }

  /** Round `round` asks the client without waiting here (a replay run let go: its retry runs the call again). */
  asked(round: number, front: AskingFront, asked: readonly AskedInput[], rootsRound = false): void {
    this.deps.emit({
      type: 'round_asked',
      handle: this.handle,
      round,
      record: front.record,
      method: front.method,
      asked,
      ...(rootsRound ? { rootsRound } : {}),
    });
  }

  /** Whether the interaction waits in the suspension table for its client's retry. */
  get suspended(): boolean {
    return this.deps.suspended.has(this.handle);
  }

  /**
   * The retry of round `round` claims it: the table holds it no more (a second claim misses with
   * `consumed`), and the interaction no longer waits for its principal. A miss says why.
   */
  claim(round: number, now: number): { ok: true } | MissResult {
    const claimed = this.deps.suspended.claim(this.handle, round, now);
    if (!claimed.ok) return claimed;
    this.deps.load.settle(this.handle);
    return { ok: true };
  }

  /**
   * The retry of round `round` was refused for its answers: the round stays open for a corrected
   * retry until `expiresAt` at the latest, not for the rest of its ttl (a client that gave up never
   * sends one).
   */
  shorten(round: number, expiresAt: number): void {
    this.deps.suspended.shorten(this.handle, round, expiresAt);
  }

  /** The client's answers to round `round` reached the legacy call. */
  answersReceived(round: number, answers: ReadonlyMap<string, unknown>): void {
    this.deps.emit({ type: 'answers_received', handle: this.handle, round, answers });
  }

  /** A replay run answered `fromRecord` requests from its record and found `mismatched` new ones. */
  replayed(fromRecord: number, mismatched: number): void {
    this.deps.emit({ type: 'replayed', handle: this.handle, fromRecord, mismatched });
  }

  /**
   * A roots round was answered: its call starts under an owner of its own, and this one holds
   * nothing (its round was claimed, it never waited in the principal's load, it sent nothing).
   */
  rootsAnswered(): void {
    this.over = true;
  }

  /** Ends the interaction and releases what it holds, once; an end after the end is a no-op. */
  end(ending: Ending): void {
    if (this.over) return;
    this.over = true;
    const { reason, why, waitedMs } = ending;
    this.deps.suspended.end(this.handle, TOMBSTONE[reason], waitedMs);
    this.deps.load.settle(this.handle);
    const subject = this.subject;
    // A call handed over goes on as a task, which holds its legacy call and lease from now on and ends them itself.
    if (reason === 'let_go') (subject as Interaction).letGo(why ?? reason);
    else if (reason !== 'task') subject.end(why ?? reason);
    this.deps.emit({
      type: 'ended',
      handle: this.handle,
      reason,
      rounds: subject.round,
      ...(why === undefined ? {} : { why }),
      ...(ending.result === undefined ? {} : { result: ending.result }),
      ...(ending.error === undefined ? {} : { error: ending.error }),
    });
  }
}
