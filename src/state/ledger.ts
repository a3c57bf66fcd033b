// The single-use ledger of replay states: a replayed call's requestState may be consumed once, by
// its id, and the entry lives exactly as long as the state could still open. In memory by default
// (one instance); redis-store.ts shares it between instances.
import type { Clock } from '../clock.js';

export interface ConsumedLedger {
  /**
   * Records `id` as consumed until `expiresAtMs`. True for the first caller, false if it was already
   * consumed. Rejects when the ledger cannot be reached (the caller must then fail closed).
   */
  consume(id: string, expiresAtMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** How often expired entries are dropped. */
const SWEEP_MS = 10_000;

export class MemoryLedger implements ConsumedLedger {
  private readonly consumed = new Map<string, number>();
  private readonly stopSweeper: () => void;

  constructor(private readonly clock: Clock) {
    this.stopSweeper = clock.every(SWEEP_MS, () => this.sweep());
  }

  get size(): number {
    return this.consumed.size;
  }

  async consume(id: string, expiresAtMs: number): Promise<boolean> {
    const until = this.consumed.get(id);
    if (until !== undefined && until > this.clock.now()) return false;
    this.consumed.set(id, expiresAtMs);
    return true;
  }

  sweep(): void {
    const now = this.clock.now();
    for (const [id, until] of this.consumed) if (until <= now) this.consumed.delete(id);
  }

  async close(): Promise<void> {
    this.stopSweeper();
  }
}
