// What other instances know of this instance's tasks: the sealed records in the task store
// (--state-store), written by the owner and read (and, once the owner is gone, failed) by others.
//
// One final status per task, everywhere:
// - every write is a compare-and-set (state/task-store.ts mayPut): a final record is never replaced,
//   so when another instance failed a task first, the owner's own end is refused and the owner takes
//   that `failed` as the task's end (and stops the task if it still ran);
// - the owner shows its clients a `completed` or `cancelled` only once the store has it (ownerShows):
//   until then the status before it. `failed` it shows at once: it is all another instance writes;
// - a record not written (the store away), lost (the store restarted empty) or rolled back is
//   written again by the owner's next heartbeat (reconcile), the final status included;
// - a write may apply before its reply comes, and one whose reply never came (a timeout, a
//   connection broken after sending) may still apply, late: from the moment an end is sent until
//   the store is read again its outcome is unknown. Meanwhile the owner shows neither that end (the
//   store may never have it) nor the status before it (another instance may already have read the
//   end): tasks/get waits for the write, and if its outcome stays unknown the client is told the
//   store cannot answer now. The next write or heartbeat settles it, and a record the owner finds
//   final in the store is recognised as its own by its writer and version;
// - every record carries its version, checked against the store's on read, and its expiry; a
//   record larger than MAX_RECORD_CHARS is not opened. An instance remembers the latest version it
//   read of each task (the last SEEN_TASKS tasks) and never answers from an older one (rolled back
//   in the store): it says the store cannot answer now, until the owner writes the record again.
import type { Clock } from '../../clock.js';
import { JSONRPC, ProxyError, type ReasonOf } from '../../protocol/errors.js';
import type { JsonObject } from '../../protocol/json.js';
import type { Sealer } from '../../state/seal.js';
import { type TaskStore, WriteNotSent, type Writer } from '../../state/task-store.js';
import type { Logger } from '../../telemetry/logger.js';
import { isTerminal, type TaskView } from './task-wire.js';

/** The largest stored record opened (sealed characters): the largest inlined result it can carry is about 3/4 of it. */
export const MAX_RECORD_CHARS = 4 * 1024 * 1024;
/** How many tasks' latest versions an instance remembers (the oldest forgotten first). */
export const SEEN_TASKS = 10_000;

export type RecordView = Omit<TaskView, 'taskId'>;

/** What a task store holds for one task (sealed): enough for another instance's tasks/get. */
export interface TaskRecord {
  /** The task's handle: a record copied under another task's key does not pass for it. */
  h: string;
  /** The owning instance. */
  o: string;
  /** When the record goes (ms). */
  e: number;
  /** The instance that wrote this version (the owner, or a reader that failed the task); absent in records of earlier versions. */
  w?: string;
  /** Its version: one more with each write; the store keeps it beside the record (mayPut). */
  v: number;
  view: RecordView;
}

/** The owner's side of one task's records. */
export interface Published {
  handle: string;
  expiresAt: number;
  /** The latest record made of the task. */
  record?: TaskRecord | undefined;
  /** The store has `record` (false: it is written again by the next reconcile). */
  stored: boolean;
  /** A record whose write got no reply: the store may have it, or may get it late. */
  unsure?: TaskRecord | undefined;
  /** A final status another instance wrote first: what the task ended as. */
  override?: RecordView | undefined;
  /** The task's latest status that was not final, shown until its end is in the store. */
  live?: TaskView | undefined;
  /** The writes, in order (each waits for the one before). */
  written: Promise<void>;
}

/**
 * What the owner tells its clients of a task whose records go to a store: a final status another
 * instance wrote first; otherwise the task as it is, except a `completed` or `cancelled` the store
 * has not confirmed, for which the status before it, and nothing (undefined: the store cannot say
 * now) while the write of its end has an unknown outcome. Pure.
 */
export function ownerShows(p: Pick<Published, 'override' | 'live' | 'stored' | 'record' | 'unsure'>, view: TaskView): TaskView | undefined {
  if (p.override !== undefined) return { ...p.override, taskId: view.taskId };
  if (!isTerminal(view.status) || view.status === 'failed') return view;
  // Its end may be in the store, or not: neither it nor the status before it may be shown.
  if (p.unsure !== undefined && isTerminal(p.unsure.view.status)) return undefined;
  const confirmed = p.stored && p.record?.view.status === view.status;
  return confirmed || p.live === undefined ? view : p.live;
}

export interface TaskRecordsOptions {
  store: TaskStore;
  sealer: Sealer;
  instance: string;
  clock: Clock;
  log: Logger;
  /** A task's end was settled in the store (confirmed, or another instance's taken): tell its watchers. */
  settled(handle: string): void;
  /** Another instance failed the task first: stop it here with that reason. */
  endedElsewhere(handle: string, reason: string): void;
}

export class TaskRecords {
  /** The latest version read of other instances' tasks, by handle, oldest first. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly opts: TaskRecordsOptions) {}

  /** Writes the task's latest view as its next record, after the writes before it. */
  write(p: Published, view: TaskView): void {
    if (p.override !== undefined) return;
    if (!isTerminal(view.status)) p.live = view;
    const { taskId: _id, ...rest } = view;
    const { instance } = this.opts;
    const record: TaskRecord = { h: p.handle, o: instance, w: instance, e: p.expiresAt, v: (p.record?.v ?? 0) + 1, view: rest };
    p.record = record;
    p.stored = false;
    // From the moment it is sent, an end may be in the store (and read by another instance).
    if (isTerminal(view.status)) p.unsure = record;
    this.put(p);
  }

  /**
   * Finds records the store does not hold as written (never written while it was away, lost when it
   * restarted empty, rolled back) and writes them again. Resolves with how many.
   */
  async reconcile(all: readonly Published[]): Promise<number> {
    const now = this.opts.clock.now();
    const mine = all.filter((p) => p.record !== undefined && p.expiresAt > now);
    const versions = await this.opts.store.versions(mine.map((p) => p.handle));
    let again = 0;
    mine.forEach((p, i) => {
      if (p.stored && versions[i] === p.record!.v) return;
      p.stored = false;
      again++;
      this.put(p);
    });
    return again;
  }

  private put(p: Published): void {
    p.written = p.written
      .then(() => this.putOwn(p))
      .catch((err: unknown) => void this.opts.log.warn('cannot write a task to the state store', { task: p.handle, error: (err as Error).message }));
  }

  private async putOwn(p: Published): Promise<void> {
    const record = p.record;
    // A later write, or another instance's end, came first.
    if (record === undefined || p.stored) return;
    let put: boolean;
    try {
      put = await this.putRecord(record, { kind: 'owner' });
    } catch (err) {
      // Never sent: it did not apply. Otherwise it may have, or may yet: unsure until the store is read.
      if (err instanceof WriteNotSent && p.unsure === record) p.unsure = undefined;
      else if (!(err instanceof WriteNotSent) && (p.unsure === undefined || p.unsure.v < record.v)) p.unsure = record;
      throw err;
    }
    if (put) {
      this.confirmed(p, record);
      return;
    }
    // A final record is there that this one may not replace: this instance's own, written by a
    // write whose reply was lost, or another instance's (that failed the task).
    const theirs = await this.readRecord(p.handle, this.opts.instance);
    if (theirs.w === this.opts.instance && theirs.v === record.v) {
      this.opts.log.debug('the state store has the task as this instance wrote it (the reply to that write was lost)', { task: p.handle, version: record.v });
      this.confirmed(p, record);
      return;
    }
    p.unsure = undefined;
    this.opts.log.info("the task's end was written by another instance first: it ends as that says", { task: p.handle, status: theirs.view.status });
    p.override = theirs.view;
    p.record = theirs;
    p.stored = true;
    this.opts.endedElsewhere(p.handle, theirs.view.error?.message ?? `the task was ${theirs.view.status} by another proxy instance`);
    this.opts.settled(p.handle);
  }

  /** The store has `record`: an end it holds is settled, and a write before it with no reply no longer matters. */
  private confirmed(p: Published, record: TaskRecord): void {
    if (p.unsure !== undefined && p.unsure.v <= record.v) p.unsure = undefined;
    if (p.record !== record) return;
    p.stored = true;
    if (isTerminal(record.view.status)) this.opts.settled(p.handle);
  }

  /** Another instance's task as the store has it; a running one whose owner is no longer alive is failed now (if still as read). */
  async remoteView(owner: string, handle: string, taskId: string): Promise<TaskView> {
    const store = this.opts.store;
    const record = this.notOlder(await this.readRecord(handle, owner));
    this.opts.log.debug('task read from the state store', { task: handle, status: record.view.status });
    if (isTerminal(record.view.status) || (await reach(this.opts.log, () => store.isAlive(owner)))) return { ...record.view, taskId };
    const message = 'the proxy instance running the task stopped before the task ended';
    const { inputRequests: _open, result: _result, ...rest } = record.view;
    const failed: TaskRecord = {
      ...record,
      w: this.opts.instance,
      v: record.v + 1,
      view: { ...rest, status: 'failed', lastUpdatedAt: new Date(this.opts.clock.now()).toISOString(), error: { code: JSONRPC.INTERNAL_ERROR, message } },
    };
    if (await reach(this.opts.log, () => this.putRecord(failed, { kind: 'reader', expected: record.v }))) {
      this.opts.log.info('task failed: its owner is gone', { task: handle, owner });
      this.notOlder(failed);
      return { ...failed.view, taskId };
    }
    // The record changed since it was read (its owner wrote, or another reader failed it): that one stands.
    return { ...this.notOlder(await this.readRecord(handle, owner)).view, taskId };
  }

  /** `record`, remembered as the latest read of its task; refused when an older one than that (the store's copy was rolled back). */
  private notOlder(record: TaskRecord): TaskRecord {
    const latest = this.seen.get(record.h);
    if (latest !== undefined && record.v < latest) {
      this.opts.log.warn('a task record older than one read before is in the state store: not answered from', { task: record.h, version: record.v, latest });
      throw new ProxyError(
        'store_unavailable',
        'state_store_unavailable',
        'the state store holds an older record of this task than this instance has read; try again',
      );
    }
    this.seen.delete(record.h);
    this.seen.set(record.h, record.v);
    if (this.seen.size > SEEN_TASKS) this.seen.delete(this.seen.keys().next().value!);
    return record;
  }

  /** A record sealed (the store can neither read nor forge it) under its task's handle, until it expires; false: mayPut refused it. */
  private async putRecord(record: TaskRecord, writer: Writer): Promise<boolean> {
    const sealed = await this.opts.sealer.sealRecord(record as unknown as JsonObject);
    return this.opts.store.putTask(record.h, { record: sealed, version: record.v, final: isTerminal(record.view.status) }, record.e, writer);
  }

  /** The stored record of `handle`, written for `owner`'s task: opened, and checked against the store's version and its own expiry. */
  private async readRecord(handle: string, owner: string): Promise<TaskRecord> {
    const stored = await reach(this.opts.log, () => this.opts.store.getTask(handle));
    if (stored === undefined) throw unknownTask('the task has expired or is gone', 'expired');
    if (stored.record.length > MAX_RECORD_CHARS) {
      this.opts.log.warn('a task record in the state store is too large to open', { task: handle, chars: stored.record.length });
      throw unknownTask(UNKNOWN);
    }
    const record = (await this.opts.sealer.openRecord(stored.record).catch(() => undefined)) as TaskRecord | undefined;
    if (record === undefined || record.h !== handle || record.o !== owner || record.v !== stored.version || typeof record.e !== 'number') {
      throw unknownTask(UNKNOWN);
    }
    if (record.e <= this.opts.clock.now()) throw unknownTask('the task has expired or is gone', 'expired');
    return record;
  }
}

/** What a forged, foreign or another principal's id is told (-32602): nothing of whose it is. */
export const UNKNOWN = 'unknown taskId';

export function unknownTask(message: string, reason: ReasonOf<'task_unknown'> = 'unknown'): ProxyError {
  return new ProxyError('task_unknown', reason, message);
}

/**
 * A store command; an unreachable store is the client's error to retry, not an unknown task. The
 * store's own words ("WRONGTYPE ...", its client's state) are logged here and never reach the
 * client: they describe the deployment, not the request.
 */
export async function reach<T>(log: Logger, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (err) {
    log.warn('state store command failed', { error: (err as Error).message });
    throw new ProxyError(
      'store_unavailable',
      'state_store_unavailable',
      'the state store cannot be reached, so no instance can answer for this task now; try again',
    );
  }
}
