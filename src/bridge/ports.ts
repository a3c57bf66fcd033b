// What the bridge needs of the legacy side, as interfaces: a source of exclusive session leases and
// the few members of a session it uses. The upstream layer satisfies them structurally; the bridge
// never imports the pool or the session classes, so unit tests and the bench plug in a fake.
import type { LegacyCapabilities } from '../protocol/capabilities.js';
import type { JsonObject, Root, ServerRequest } from '../protocol/json.js';
import type { RootsBinding } from '../protocol/roots.js';

/** Whoever holds a session exclusively receives the legacy server's requests and logs. */
export interface SessionHolder {
  /** Settles with the result to send back; rejects with an McpError to send an error. */
  onServerRequest(request: ServerRequest, withdrawn: AbortSignal): Promise<JsonObject>;
  onLog(params: JsonObject): void;
}

/** The part of a legacy session an interaction drives. */
export interface BridgeSession {
  holder: SessionHolder | undefined;
  readonly closed: boolean;
  readonly closeReason: string;
  /** The revision negotiated at initialize; answers are shaped for it. */
  readonly negotiatedVersion: string;
  request(method: string, params: JsonObject | undefined, opts?: { signal?: AbortSignal; onprogress?: (p: JsonObject) => void }): Promise<JsonObject>;
}

export interface SessionLease<S = BridgeSession> {
  readonly session: S;
  /** Returns a healthy session to its pool. Idempotent. */
  release(): void;
  /** Closes the session (its state is unknown or spoiled). Idempotent. */
  discard(reason: string): void;
  /** The holder now waits for a client; false when no more sessions may wait (it must not). */
  markWaiting(): boolean;
  /** The holder works again. */
  markActive(): void;
}

export interface SessionSource {
  /**
   * A session initialized with `caps` whose outside-call `roots/list` is answered with `roots`
   * (the operator's when undefined), held exclusively until the lease is released or discarded.
   */
  acquire(caps: LegacyCapabilities, mode: 'exclusive', roots?: RootsBinding): Promise<SessionLease>;
  /** True once the legacy server has asked `roots/list` outside a call on any of its sessions. */
  asksRootsOutsideCalls(): boolean;
  /** The operator's roots (`--root`, per upstream `roots:`). */
  operatorRoots(): readonly Root[];
}

/**
 * Who watches interactions (the audit, a live view). The bridge calls it synchronously with plain
 * data, including what the user answered: an observer decides what it keeps. It must not throw or block.
 */
export interface InteractionObserver {
  /**
   * An interactive call was sent to the legacy server. `mode` says how it waits between rounds.
   * A replayed call runs once per round, each run its own interaction: `replay` names the call
   * (the same id in every run, on any instance), the run (= the round it may return), and what
   * the retry that started this run answered to the previous run's questions.
   */
  onStart(e: {
    handle: string;
    method: string;
    params: JsonObject;
    mode: 'hold' | 'replay';
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
   */
  onEnd(e: {
    handle: string;
    reason: 'completed' | 'expired' | 'cancelled' | 'lost' | 'legacy_gave_up' | 'let_go';
    why?: string;
    result?: JsonObject;
    error?: { code: number; message: string };
  }): void;
}
