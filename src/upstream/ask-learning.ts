// How an interactive call holds its legacy session, from what its key (the tool, the prompt,
// resources/read) has shown. A key whose requests reach the proxy with provenance (on its own
// Streamable HTTP response stream), or that completed without asking, shares freely: nothing it
// sends can be taken for another call's. A key that asks without provenance, or is not known
// either way, is a runner: it shares its session with parked calls and with free ones, but runs
// alone among untied calls (see attribution.ts). A key that was among several calls that could
// have sent one untied request (it asked while it should have been parked, or changed how it
// asks) gets sessions of its own. Of a burst of calls to a key not known either way, the first
// finds out and the others wait for it, briefly, rather than queue for runner slots a tool that
// never asks does not need.
import { askKey } from '../protocol/ask-key.js';
import type { JsonObject } from '../protocol/json.js';
import { systemClock, type Clock } from '../clock.js';
import type { Learning } from './attribution.js';
import type { LeaseMode } from './pool/lease.js';

export { askKey };

/** Learned keys kept at most; past it every call of a key not known to share is a runner (the safe default). */
export const MAX_LEARNED_KEYS = 10_000;

/**
 * How long a call of a key not known either way waits for an earlier call of it to tell whether it
 * asks: about what starting a legacy child takes, so waiting is rarely slower than not waiting.
 * Past it (a slow tool, or a first call that failed and so told nothing) the call is a runner,
 * and becomes the one that finds out.
 */
export const FIRST_CALL_WAIT_MS = 1000;

interface FirstCall {
  since: number;
  told: Promise<void>;
  tell: () => void;
}

export interface AskFacts {
  /** Keys among several calls that could have sent one untied request. */
  exclusive: ReadonlySet<string>;
  /** Keys that asked without provenance. */
  untied: ReadonlySet<string>;
  /** Keys that asked with provenance, or completed at least once without asking. */
  free: ReadonlySet<string>;
}

/** The lease an interactive call of `key` takes (see the file's header). */
export function interactiveLeaseMode(key: string, facts: AskFacts): LeaseMode {
  if (facts.exclusive.has(key)) return 'exclusive';
  if (facts.untied.has(key)) return 'runner';
  return facts.free.has(key) ? 'shared' : 'runner';
}

/** What one upstream configuration has learned about its calls. */
export class AskLearner {
  private readonly exclusive = new Set<string>();
  private readonly untied = new Set<string>();
  private readonly free = new Set<string>();
  /** Keys not known either way whose first call is running. */
  private readonly firstCalls = new Map<string, FirstCall>();

  constructor(
    private readonly onLearned: (key: string, how: 'untied' | 'exclusive') => void = () => {},
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * The lease mode once it is known: a call of a key not known either way waits for the first call
   * of that key still running (up to FIRST_CALL_WAIT_MS) and takes the mode it showed; with none
   * running, it is that first call, a runner.
   */
  async leaseFor(method: string, params: JsonObject | undefined): Promise<LeaseMode> {
    const key = askKey(method, params);
    if (this.known(key)) return this.modeOf(key);
    const now = this.clock.now();
    const first = this.firstCalls.get(key);
    if (first === undefined || now - first.since >= FIRST_CALL_WAIT_MS) {
      first?.tell();
      this.firstCalls.delete(key);
      if (this.roomForFirstCall(now)) this.firstCalls.set(key, firstCall(now));
      return 'runner';
    }
    const stop = new AbortController();
    await Promise.race([first.told, this.clock.sleep(first.since + FIRST_CALL_WAIT_MS - now, stop.signal)]);
    stop.abort();
    // Told as its result came in: one turn lets the first call give its session back, so that the
    // others share that one instead of starting another.
    await this.clock.turn();
    return this.modeOf(key);
  }

  private known(key: string): boolean {
    return this.exclusive.has(key) || this.untied.has(key) || this.free.has(key);
  }

  /**
   * Tool names come from clients, and a first call that fails tells nothing: past the bound, the
   * entries nobody can wait on any more go, and if that is not enough the call is not waited on.
   */
  private roomForFirstCall(now: number): boolean {
    if (this.firstCalls.size < MAX_LEARNED_KEYS) return true;
    for (const [key, first] of this.firstCalls) if (now - first.since >= FIRST_CALL_WAIT_MS) this.firstCalls.delete(key);
    return this.firstCalls.size < MAX_LEARNED_KEYS;
  }

  private modeOf(key: string): LeaseMode {
    return interactiveLeaseMode(key, { exclusive: this.exclusive, untied: this.untied, free: this.free });
  }

  /** Whoever waits on the first call of `key` may decide now. */
  private told(key: string): void {
    this.firstCalls.get(key)?.tell();
    this.firstCalls.delete(key);
  }

  /** What a routed legacy request showed (see attribution.ts). */
  learn(learning: Learning): void {
    for (const key of learning.exclusive) {
      if (this.exclusive.has(key) || this.exclusive.size >= MAX_LEARNED_KEYS) continue;
      this.exclusive.add(key);
      this.onLearned(key, 'exclusive');
      this.told(key);
    }
    for (const key of learning.untied) {
      if (this.untied.has(key) || this.untied.size >= MAX_LEARNED_KEYS) continue;
      this.untied.add(key);
      this.free.delete(key);
      this.onLearned(key, 'untied');
      this.told(key);
    }
    for (const key of learning.tied) {
      if (this.untied.has(key) || this.free.size >= MAX_LEARNED_KEYS) continue;
      this.free.add(key);
      this.told(key);
    }
  }

  /** A call of `key` completed without asking anything. */
  completedQuietly(key: string): void {
    if (!this.untied.has(key) && this.free.size < MAX_LEARNED_KEYS) this.free.add(key);
    this.told(key);
  }
}

function firstCall(since: number): FirstCall {
  let tell = () => {};
  const told = new Promise<void>((resolve) => (tell = resolve));
  return { since, told, tell };
}
