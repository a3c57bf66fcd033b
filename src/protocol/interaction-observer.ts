// What the bridge tells about each interactive call (start, rounds, answers, replays, end). The one
// definition: the bridge calls it, and the audit, the live view and the shadow comparison implement
// it; they sit beside the bridge, not above it, so the shape lives in this lower layer. Types only.
import type { FrontCapabilities } from './capabilities.js';
import type { JsonObject, Root } from './json.js';
import type { RecordEntry } from './replay-match.js';

/**
 * Who watches interactions (the audit, a live view). The bridge calls it synchronously with plain
 * data, including what the user answered: an observer decides what it keeps. It must not throw or block.
 */
export interface InteractionObserver {
  /**
   * An interactive call was sent to the legacy server. `mode` says how it waits between rounds;
   * `capabilities` are the ones the client declared, `roots` those it gave in a roots round.
   * `rootsRound`: the proxy asked the client for its roots before sending the call (docs/roots.md),
   * which a legacy server that reads roots at initialize needs; `roots` are that round's answer.
   * A replayed call runs once per round, each run its own interaction: `replay` names the call
   * (the same id in every run, on any instance), the run (= the round it may return), and what
   * the retry that started this run answered to the previous run's questions; `recorded` is what
   * earlier runs asked and the client answered (in `roundsBefore` rounds).
   */
  onStart(e: {
    handle: string;
    method: string;
    params: JsonObject;
    mode: 'hold' | 'replay';
    capabilities: FrontCapabilities;
    roots?: readonly Root[] | undefined;
    rootsRound?: true;
    recorded?: readonly RecordEntry[];
    roundsBefore?: number;
    replay?: { call: string; run: number; answers: ReadonlyMap<string, unknown> };
  }): void;
  /** The call was suspended: these legacy requests went to the client as round `round`. */
  onRound(e: { handle: string; round: number; asked: ReadonlyArray<{ key: string; method: string; params?: Record<string, unknown> }> }): void;
  /** The client's retry for round `round` arrived with these answers (by input key). */
  onAnswers(e: { handle: string; round: number; answers: ReadonlyMap<string, unknown> }): void;
  /**
   * A replay run answered `fromRecord` of the legacy server's requests from the record, and found
   * `mismatched` positions where the server asked something other than what the record holds.
   */
  onReplay?(e: { handle: string; fromRecord: number; mismatched: number }): void;
  /**
   * The call ended: `result` when the legacy server answered, `error` when it failed with one.
   * `let_go`: a replay run asked the client and let its legacy call go; the retry runs the call again.
   * `task`: the call went on as a task of the proxy (bridge/tasks/hosted-task.ts), whose end is the task's.
   */
  onEnd(e: {
    handle: string;
    reason: 'completed' | 'expired' | 'cancelled' | 'lost' | 'legacy_gave_up' | 'let_go' | 'task';
    why?: string;
    result?: JsonObject;
    error?: { code: number; message: string };
  }): void;
}
