// Which interactive calls may share a legacy session. A call whose requests reach the proxy with
// provenance (on its own Streamable HTTP response stream) can always share: each request is tied to
// its call. A request without provenance can only be attributed while its call is alone on the
// session, so what was called (the tool, the prompt, resources/read) is learned as "asks without
// provenance" the first time it does, and is leased a session of its own from then on. Over stdio
// every request is without provenance: a tool shares once it has completed without asking, and a
// tool that asked once is leased exclusively. Of a burst of calls to a tool not known either way,
// the first finds out (on a session of its own) and the others wait for it, briefly, rather than
// each starting a legacy session (a cold burst of 16 calls started 16 children at once).
import type { JsonObject } from '../protocol/json.js';
import { systemClock, type Clock } from '../runtime/clock.js';
import type { LeaseMode } from './lease.js';

/** Learned keys kept at most; past it every interactive call is leased exclusively (a safe fallback). */
export const MAX_LEARNED_KEYS = 10_000;

/**
 * How long a call of a key not known either way waits for an earlier call of it to tell whether it
 * asks: about what starting a legacy child takes, so waiting is rarely slower than not waiting.
 * Past it (a slow tool, or a first call that failed and so told nothing) the call is leased
 * exclusively, as every such call was before, and becomes the one that finds out.
 */
export const FIRST_CALL_WAIT_MS = 1000;

interface FirstCall {
  since: number;
  told: Promise<void>;
  tell: () => void;
}

/**
 * What an interactive call is learned under: `tool:NAME`, `prompt:NAME`, and one key for every
 * `resources/read` (URIs are unbounded, and servers rarely ask during a read).
 */
export function askKey(method: string, params: JsonObject | undefined): string {
  const name = params?.['name'];
  if (method === 'tools/call') return `tool:${typeof name === 'string' ? name : ''}`;
  if (method === 'prompts/get') return `prompt:${typeof name === 'string' ? name : ''}`;
  return method;
}

export interface AskFacts {
  /** The transport ties each server request to its call (Streamable HTTP) when the server lets it. */
  provenance: boolean;
  /** Keys that asked without provenance. */
  asked: ReadonlySet<string>;
  /** Keys that have completed at least once without asking. */
  quiet: ReadonlySet<string>;
}

/**
 * The lease an interactive call takes. A key that asked without provenance: exclusive. Over a
 * transport with provenance: shared. Without provenance (stdio, HTTP+SSE, WebSocket): shared only
 * once the key has completed without asking, so a burst of first calls to a tool that asks is not
 * refused; until then exclusive, as every interactive call was before sessions were shared.
 */
export function interactiveLeaseMode(key: string, facts: AskFacts): LeaseMode {
  if (facts.asked.size >= MAX_LEARNED_KEYS || facts.asked.has(key)) return 'exclusive';
  if (facts.provenance) return 'shared';
  return facts.quiet.has(key) ? 'shared' : 'exclusive';
}

/** What one upstream configuration has learned about its calls. */
export class AskLearner {
  private readonly asked = new Set<string>();
  private readonly quiet = new Set<string>();
  /** Keys not known either way whose first call is running. */
  private readonly firstCalls = new Map<string, FirstCall>();

  constructor(
    private readonly provenance: boolean,
    private readonly onLearned: (key: string) => void = () => {},
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * The lease mode once it is known: a call of a key not known either way waits for the first call
   * of that key still running (up to FIRST_CALL_WAIT_MS) and shares if that one completed without
   * asking; with none running, it is that first call, leased exclusively.
   */
  async leaseFor(method: string, params: JsonObject | undefined): Promise<LeaseMode> {
    const key = askKey(method, params);
    const mode = this.modeOf(key);
    if (mode === 'shared' || this.asked.has(key) || this.asked.size >= MAX_LEARNED_KEYS) return mode;
    const now = this.clock.now();
    const first = this.firstCalls.get(key);
    if (first === undefined || now - first.since >= FIRST_CALL_WAIT_MS) {
      first?.tell();
      this.firstCalls.delete(key);
      if (this.roomForFirstCall(now)) this.firstCalls.set(key, firstCall(now));
      return 'exclusive';
    }
    const stop = new AbortController();
    await Promise.race([first.told, this.clock.sleep(first.since + FIRST_CALL_WAIT_MS - now, stop.signal)]);
    stop.abort();
    // Told as its result came in: one turn lets the first call give its session back, so that the
    // others share that one instead of starting another.
    await this.clock.turn();
    return this.modeOf(key);
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
    return interactiveLeaseMode(key, { provenance: this.provenance, asked: this.asked, quiet: this.quiet });
  }

  /** Whoever waits on the first call of `key` may decide now. */
  private told(key: string): void {
    this.firstCalls.get(key)?.tell();
    this.firstCalls.delete(key);
  }

  /** These keys asked without provenance (or may have): exclusive from now on. */
  learn(keys: readonly string[]): void {
    for (const key of keys) {
      if (this.asked.has(key) || this.asked.size >= MAX_LEARNED_KEYS) continue;
      this.asked.add(key);
      this.quiet.delete(key);
      this.onLearned(key);
      this.told(key);
    }
  }

  /** A call of `key` completed without asking anything. */
  completedQuietly(key: string): void {
    if (!this.asked.has(key) && this.quiet.size < MAX_LEARNED_KEYS) this.quiet.add(key);
    this.told(key);
  }
}

function firstCall(since: number): FirstCall {
  let tell = () => {};
  const told = new Promise<void>((resolve) => (tell = resolve));
  return { since, told, tell };
}
