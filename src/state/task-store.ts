// Where a proxy instance writes what other instances must know of its tasks (bridge/tasks/task-table.ts):
// each task's record, and that the instance is still alive. Records are opaque here: the table seals
// them (state/seal.ts), so the store can neither read nor forge one. Without --state-store there is
// none, and a task is known only to the instance that runs it.

export interface TaskStore {
  /** Writes a task's record, kept until `expiresAtMs` and then dropped by the store. */
  putTask(handle: string, record: string, expiresAtMs: number): Promise<void>;
  /** A task's record; undefined once it expired, or if it was never written. */
  getTask(handle: string): Promise<string | undefined>;
  /** Says `instance` is alive for `ttlMs` more (its running tasks still have an owner). */
  markAlive(instance: string, ttlMs: number): Promise<void>;
  isAlive(instance: string): Promise<boolean>;
}
