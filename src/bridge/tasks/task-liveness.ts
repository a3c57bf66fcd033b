// Whether this instance counts as alive for the other instances sharing its task store: it marks
// itself alive every heartbeat, for three heartbeats, and another instance fails a running task
// whose owner's mark has lapsed. So an owner whose own mark lapsed (it was paused: a long GC pause,
// a frozen VM, SIGSTOP; or it could not reach the store) must count its running tasks as failed
// too, as soon as it notices, whether or not the store answers again: it fences itself.
import type { Clock } from '../../clock.js';
import type { TaskStore } from '../../state/task-store.js';
import type { Logger } from '../../telemetry/logger.js';

/** Whether a mark made at `markedAt` (measured before it was sent) has run out by `now`. Pure. */
export function markLapsed(markedAt: number | undefined, now: number, aliveForMs: number): boolean {
  return markedAt !== undefined && now - markedAt >= aliveForMs;
}

export interface LivenessOptions {
  store: TaskStore;
  instance: string;
  /** How long one mark lasts (three heartbeats). */
  aliveForMs: number;
  clock: Clock;
  log: Logger;
  /** The mark lapsed: fail this instance's running tasks. */
  fence(): void;
}

export class Liveness {
  /** When this instance last marked itself alive (the mark lasts `aliveForMs` from then). */
  private markedAt: number | undefined;

  constructor(private readonly opts: LivenessOptions) {}

  /**
   * Marks this instance alive (at start the store may not be connected yet: each new task marks it
   * too). A mark that lapsed fences first. True once marked.
   */
  async mark(): Promise<boolean> {
    const { store, clock } = this.opts;
    const at = clock.now();
    if (markLapsed(this.markedAt, at, this.opts.aliveForMs)) this.opts.fence();
    try {
      await store.markAlive(this.opts.instance, this.opts.aliveForMs);
      this.markedAt = at;
      return true;
    } catch (err) {
      this.opts.log.debug('cannot mark this instance alive', { error: (err as Error).message });
      if (markLapsed(this.markedAt, clock.now(), this.opts.aliveForMs)) this.opts.fence();
      return false;
    }
  }
}
