// One run of a replayed call: the legacy server's requests that match the record are answered from
// it at once; the first ones that do not become the next `input_required`, with the record
// extended and sealed into requestState, and the legacy call is let go. A run that asks another
// question where the record holds an answer (choices from live data) would ask anew on every run:
// it continues in hold mode instead, as does a run whose record would outgrow --max-state-bytes.
// What the client already heard (the log lines and progress of the runs before, up to the last
// recorded question) is not relayed again: the run is silent until it gets past its record.
import { randomUUID } from 'node:crypto';
import { adaptAnswer } from '../protocol/answers.js';
import { inputPosition } from '../protocol/input-requests.js';
import type { JsonObject, Root } from '../protocol/json.js';
import { nextRecord, recordedAnswer, shapeDigest, type RecordEntry } from '../protocol/replay-match.js';
import type { Clock } from '../clock.js';
import { replayClaims } from '../state/claims.js';
import { fingerprint } from '../state/fingerprint.js';
import { encodeRecord } from '../state/replay-record.js';
import type { Sealer } from '../state/seal.js';
import type { Logger } from '../telemetry/logger.js';
import type { FrontRecord } from '../telemetry/ports.js';
import type { Interaction, PendingInput } from './interaction.js';
import type { InteractionOwner } from './owner.js';
import { inputRequired } from './refusals.js';

/** What a replay run needs of its bridge. */
export interface ReplayContext {
  sealer: Sealer;
  instance: string;
  upstream: string;
  log: Logger;
  clock: Clock;
  limits(): { interactionTtlMs: number; maxStateBytes: number };
}

/** The run's call: its owner, the legacy call, and what the held mode does for it. */
export interface ReplayCall {
  owner: InteractionOwner;
  interaction: Interaction;
  /** Throws (and ends the interaction) when a request needs a capability the front did not declare. */
  refuseUndeclared(pending: PendingInput[]): void;
  /** Suspends the interaction in hold mode and answers with its input_required. */
  hold(pending: PendingInput[]): Promise<JsonObject>;
  /** This run asked another question than its record holds at the same position. */
  questionsChanged(): void;
}

/** The parts of the front request a run reads (a FrontCall satisfies it). */
export interface ReplayFront {
  method: string;
  identity: Parameters<typeof fingerprint>[0];
  principal: string;
  /** The roots the client gave in a roots round: they ride in every later state. */
  roots?: readonly Root[] | undefined;
  record?: FrontRecord;
}

export class ReplayRun {
  /** Answered from the record during this run, by position. */
  private readonly matched: RecordEntry[] = [];
  /** Positions where the server asked something other than what the record holds (a new question). */
  private mismatched = 0;
  /** Fell back to hold mode: the run's later questions are held rounds too. */
  private held = false;

  /**
   * @param record what earlier runs asked and the client answered (empty on the first run)
   * @param round the number of the input_required this run may return
   */
  constructor(
    private readonly call: ReplayCall,
    private readonly record: readonly RecordEntry[],
    private readonly round: number,
    private readonly callId: string,
    private readonly ctx: ReplayContext,
  ) {
    // The client heard what the runs before said up to their last question: this run says it again.
    if (this.unmatched() > 0) call.interaction.silence();
  }

  /** Whether the run continues in hold mode (its questions go to the held call's rounds). */
  get holding(): boolean {
    return this.held;
  }

  /** Recorded answers this run has not reached yet. */
  private unmatched(): number {
    return this.record.filter((e) => e.a !== undefined && !this.matched.some((m) => m.n === e.n)).length;
  }

  /** Answers what the record can; undefined when nothing is left to ask, else the front's answer. */
  async onInput(pending: PendingInput[], front: ReplayFront): Promise<JsonObject | undefined> {
    const { owner, interaction } = this.call;
    const version = interaction.session?.negotiatedVersion ?? '2025-11-25';
    const asks: PendingInput[] = [];
    const asked: RecordEntry[] = [];
    for (const p of pending) {
      const n = inputPosition(p.key);
      const d = shapeDigest(p.method, p.request.params);
      const recorded = recordedAnswer(this.record, n, p.method, d);
      const adapted = recorded === undefined ? undefined : adaptAnswer(p.method, recorded, version);
      if (recorded !== undefined && adapted?.ok) {
        this.matched.push({ n, m: p.method, d, a: recorded });
        // Past its record, what the run says is new to the client: it is heard from its answer on.
        if (this.unmatched() === 0) interaction.speak();
        interaction.answer(p.key, adapted.result);
        continue;
      }
      if (this.record.some((e) => e.n === n && e.a !== undefined)) this.mismatched++;
      asks.push(p);
      asked.push({ n, m: p.method, d, q: p.request });
    }
    owner.replayed(this.matched.length, this.mismatched);
    if (asks.length === 0) return undefined;
    this.call.refuseUndeclared(asks);
    if (this.mismatched > 0) {
      // Its next run would ask another question again: the call goes on held, and ends in the round the client answers.
      this.ctx.log.info('a replayed call asked another question than its record holds: it continues in hold mode', {
        handle: owner.handle,
        round: this.round,
        inputs: asks.map((p) => p.key),
      });
      this.call.questionsChanged();
      return this.holdFromHere(asks);
    }

    const record = nextRecord(this.matched, asked);
    const expiresAt = this.ctx.clock.now() + this.ctx.limits().interactionTtlMs;
    const requestState = await this.ctx.sealer.seal(
      replayClaims({
        handle: randomUUID(),
        instance: this.ctx.instance,
        round: this.round,
        principal: front.principal,
        fingerprint: fingerprint(front.identity),
        roots: front.roots,
        upstream: this.ctx.upstream,
        record: encodeRecord(record),
        legacyVersion: version,
        expiresAt,
        callId: this.callId,
      }),
      expiresAt,
    );
    const bytes = Buffer.byteLength(requestState);
    if (bytes > this.ctx.limits().maxStateBytes) {
      this.ctx.log.info('replay record too large for requestState: the call continues in hold mode', {
        handle: owner.handle,
        stateBytes: bytes,
        maxStateBytes: this.ctx.limits().maxStateBytes,
        questions: record.length,
      });
      return this.holdFromHere(asks);
    }
    // The retry runs the call again, maybe on another instance: each run is its own interaction for
    // the audit (linked by the call id) and the live view. A let-go call holds no session and no
    // waiting-share slot.
    owner.asked(this.round, front, asks);
    owner.end({ reason: 'let_go', why: 'let go for replay: the retry runs the call again' });
    this.ctx.log.debug('interaction let go for replay', {
      handle: owner.handle,
      round: this.round,
      inputs: asks.map((p) => p.key),
      stateBytes: bytes,
    });
    return inputRequired(asks, requestState);
  }

  /** The call continues in hold mode from this round on: the client hears it from here, and its rounds go on counting. */
  private holdFromHere(asks: PendingInput[]): Promise<JsonObject> {
    this.held = true;
    this.call.interaction.speak();
    this.call.interaction.continueAfter(this.round - 1);
    return this.call.hold(asks);
  }
}
