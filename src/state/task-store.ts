// Where a proxy instance writes what other instances must know of its tasks (bridge/tasks/task-table.ts):
// each task's record, and that the instance is still alive. Records are opaque here: the table seals
// them (state/seal.ts), so the store can neither read nor forge one. Without --state-store there is
// none, and a task is known only to the instance that runs it.
//
// One final status per task: next to each sealed record the store keeps its version and whether it
// is final (completed, failed, cancelled), and every write is a compare-and-set decided by mayPut.
// A final record is never replaced by another status, so the owner's `completed` cannot overwrite a
// `failed` another instance wrote once the owner's liveness mark had lapsed, nor the other way round.

/**
 * A write the store never received (its client was not connected): it did not and will not apply.
 * Any other failed write may still apply (a reply lost or late: a timeout, a connection that broke
 * after sending), so its outcome is unknown until the store is read again.
 */
export class WriteNotSent extends Error {
  override readonly name = 'WriteNotSent';
}

/** A task's record as stored: the sealed record, its version, and whether its status is final. */
export interface StoredTask {
  record: string;
  version: number;
  final: boolean;
}

/** Who writes: the instance that runs the task, or another that found its owner gone and fails it. */
export type Writer = { kind: 'owner' } | { kind: 'reader'; expected: number };

/**
 * Whether a write may replace `stored` (undefined: no record). The owner writes over any record
 * that is not final (its own, one lost, one rolled back) and never over a final one (when that is
 * its own, written before an answer was lost, it reads it back); a reader fails a task only if the
 * record is still the one it read (same version, not final). Pure: the Redis scripts
 * (redis-store.ts) and the tests' store apply it.
 */
export function mayPut(stored: Pick<StoredTask, 'version' | 'final'> | undefined, writer: Writer): boolean {
  if (writer.kind === 'reader') return stored !== undefined && !stored.final && stored.version === writer.expected;
  return stored === undefined || !stored.final;
}

export interface TaskStore {
  /**
   * Writes a task's record if mayPut allows it, kept until `expiresAtMs` and then dropped by the
   * store. False: a record already there is final (or, for a reader, changed since it was read).
   */
  putTask(handle: string, task: StoredTask, expiresAtMs: number, writer: Writer): Promise<boolean>;
  /** Drops a task's record before its expiry (a finished task its principal no longer keeps). */
  dropTask(handle: string): Promise<void>;
  /** A task's record; undefined once it expired, or if it was never written. */
  getTask(handle: string): Promise<StoredTask | undefined>;
  /** The stored versions of these tasks' records (undefined: none), to find records lost or rolled back. */
  versions(handles: readonly string[]): Promise<Array<number | undefined>>;
  /** Says `instance` is alive for `ttlMs` more (its running tasks still have an owner). */
  markAlive(instance: string, ttlMs: number): Promise<void>;
  isAlive(instance: string): Promise<boolean>;
}
