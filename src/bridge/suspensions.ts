// The table of suspended interactions: put / peek / claim / expire(now). No I/O, no timers: the
// owner sweeps with its own clock. Ended handles leave a bounded tombstone so a late retry learns
// why its interaction is gone instead of a bare "unknown".

/** How long a round whose retry was refused (malformed answers) stays open for a corrected retry. */
export const REFUSED_ROUND_GRACE_MS = 10_000;

export type EndReason = 'completed' | 'expired' | 'cancelled' | 'lost' | 'legacy_gave_up';
/** A miss, with how long the legacy server waited when it gave up. */
export type MissResult = { ok: false; miss: Miss; waitedMs?: number };
export type Miss = EndReason | 'consumed' | 'unknown';

interface Entry<T> {
  item: T;
  round: number;
  expiresAt: number;
}

export const MISS_MESSAGES: Record<Miss, string> = {
  consumed: 'requestState was already used: each requestState is good for one retry',
  completed: 'the interaction for this requestState has already completed',
  expired: 'the interaction expired: it was not resumed within the interaction TTL and has been ended',
  cancelled: 'the interaction for this requestState was cancelled',
  lost: 'the interaction was lost: its legacy server session ended',
  legacy_gave_up: 'the legacy server stopped waiting for the answer (its own request timeout) and ended the call',
  unknown: 'no suspended interaction matches this requestState (the proxy may have restarted); send the request again without requestState and inputResponses',
};

export class SuspensionTable<T> {
  private readonly live = new Map<string, Entry<T>>();
  private readonly ended = new Map<string, { reason: EndReason | 'consumed'; waitedMs?: number }>();

  constructor(private readonly maxTombstones = 10_000) {}

  get size(): number {
    return this.live.size;
  }

  put(handle: string, item: T, round: number, expiresAt: number): void {
    this.ended.delete(handle);
    this.live.set(handle, { item, round, expiresAt });
  }

  /** Looks without consuming, so a retry with malformed answers loses nothing. */
  peek(handle: string, round: number, now: number): { ok: true; item: T } | MissResult {
    const entry = this.live.get(handle);
    if (entry === undefined) {
      const ended = this.ended.get(handle);
      if (ended === undefined) return { ok: false, miss: 'unknown' };
      return ended.waitedMs === undefined ? { ok: false, miss: ended.reason } : { ok: false, miss: ended.reason, waitedMs: ended.waitedMs };
    }
    if (entry.round !== round) return { ok: false, miss: 'consumed' };
    if (entry.expiresAt <= now) return { ok: false, miss: 'expired' };
    return { ok: true, item: entry.item };
  }

  /**
   * Brings a live round's expiry forward to `expiresAt` (never later): a round whose retry was
   * refused ends soon unless a corrected retry follows, instead of holding its legacy call parked
   * for the whole TTL behind a client that gave up on the refusal.
   */
  shorten(handle: string, round: number, expiresAt: number): void {
    const entry = this.live.get(handle);
    if (entry !== undefined && entry.round === round && expiresAt < entry.expiresAt) entry.expiresAt = expiresAt;
  }

  /** Consumes the round: a second claim of the same state misses with `consumed`. */
  claim(handle: string, round: number, now: number): { ok: true; item: T } | MissResult {
    const seen = this.peek(handle, round, now);
    if (seen.ok) {
      this.live.delete(handle);
      this.tombstone(handle, 'consumed');
    }
    return seen;
  }

  /** Removes a live entry (if any) and records why it ended. */
  end(handle: string, reason: EndReason, waitedMs?: number): T | undefined {
    const entry = this.live.get(handle);
    this.live.delete(handle);
    this.tombstone(handle, reason, waitedMs);
    return entry?.item;
  }

  has(handle: string): boolean {
    return this.live.has(handle);
  }

  /** Ends every entry whose expiry has passed and returns their items. */
  expire(now: number): T[] {
    const out: T[] = [];
    for (const [handle, entry] of this.live) {
      if (entry.expiresAt <= now) {
        this.live.delete(handle);
        this.tombstone(handle, 'expired');
        out.push(entry.item);
      }
    }
    return out;
  }

  items(): T[] {
    return [...this.live.values()].map((e) => e.item);
  }

  private tombstone(handle: string, reason: EndReason | 'consumed', waitedMs?: number): void {
    this.ended.delete(handle);
    this.ended.set(handle, waitedMs === undefined ? { reason } : { reason, waitedMs });
    if (this.ended.size > this.maxTombstones) {
      const oldest = this.ended.keys().next().value;
      if (oldest !== undefined) this.ended.delete(oldest);
    }
  }
}
