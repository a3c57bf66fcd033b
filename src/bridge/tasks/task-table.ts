// The tasks one proxy instance runs for one upstream, and the ids clients know them by: the legacy
// server's own tasks (translated-task.ts) and the proxy's tasks around plain calls (hosted-task.ts).
//
// An id is sealed like a requestState (state/seal.ts: encrypted and authenticated), naming the task,
// this instance, the upstream, the principal and, with --advertise-url, where this instance is
// reached: a forged or foreign id is an unknown task, and another principal's id is not found.
//
// A task runs in the process that created it. What other instances know of it:
// - with a task store (--state-store), every change of a task's status is written there, sealed,
//   until the task's ttl ends (task-records.ts: one final status per task), and this instance says
//   every few seconds that it is alive. Another instance answers tasks/get from the record; a task
//   whose owner stopped saying so before the task ended is `failed`, with the reason. An owner
//   whose own mark lapsed (it was paused, or cut off from the store) fails its running tasks as
//   soon as it sees it. A proxy that stops fails its running tasks first;
// - tasks/update and tasks/cancel of a running task go to the owner (front/owner-forward.ts, with
//   --advertise-url); an instance that cannot reach a live owner says so;
// - without a store, another instance (or this one after a restart) is told the task is gone.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { FrontCapabilities } from '../../protocol/capabilities.js';
import { ProxyError } from '../../protocol/errors.js';
import type { JsonObject, Root } from '../../protocol/json.js';
import { type TaskClaims, taskClaims } from '../../state/claims.js';
import { type Sealer, StateError } from '../../state/seal.js';
import { principalTag } from '../../state/principal.js';
import type { TaskStore } from '../../state/task-store.js';
import type { Logger } from '../../telemetry/logger.js';
import type { TaskKind, TaskObserver, TraceOrigin } from '../../telemetry/ports.js';
import type { DropNotification, Interaction } from '../interaction.js';
import type { SessionLease } from '../ports.js';
import { HostedTask, type HostedTaskPolicy } from './hosted-task.js';
import { DEFAULT_TASK_BOUNDS, finishedToDrop, keptView, resultBytes, type TaskBounds } from './task-bounds.js';
import { Liveness } from './task-liveness.js';
import { ownerShows, type Published, TaskRecords, UNKNOWN, unknownTask } from './task-records.js';
import { createTaskResult, detailedTask, isTerminal, type LegacyTask, TASK_ACK, type TaskStatus, type TaskView } from './task-wire.js';
import { TranslatedTask } from './translated-task.js';

/** How long a task and its result are kept when the legacy server gives no ttl. */
export const DEFAULT_TASK_TTL_MS = 60 * 60 * 1000;
/** How often tasks past their ttl are looked for. */
const SWEEP_MS = 5000;
/** How often an instance with a task store says it is alive; it counts as gone after three missed. */
export const HEARTBEAT_MS = 5000;

export interface TaskTableOptions {
  sealer: Sealer;
  /** This process and upstream (the `i` of the ids it seals). */
  instance: string;
  /** The upstream's route name. */
  upstream: string;
  /** This instance's base URL as other instances reach it; unset: one instance. */
  advertiseUrl?: string | undefined;
  /** Where task records are written for other instances; absent: tasks are known here only. */
  store?: TaskStore | undefined;
  /** How often this instance says in the store that it is alive (HEARTBEAT_MS); each mark lasts three times that. */
  heartbeatMs?: number | undefined;
  operatorRoots(): readonly Root[];
  clock: Clock;
  log: Logger;
  /** Told of each task created and ended (metrics, spans, audit). */
  observer?: TaskObserver | undefined;
  /** What is kept of finished tasks (task-bounds.ts); read at each task's end, so a reload applies. Absent: the defaults. */
  bounds?: (() => TaskBounds) | undefined;
  /** Told of a notification the legacy server sent during a task: a task has no response stream to carry it. */
  dropNotification?: DropNotification;
}

/** What the table asks of either kind of task. */
interface RunningTask {
  readonly status: TaskStatus;
  /** What tasks/get answers (may ask the legacy server first). */
  view(): Promise<TaskView>;
  /** What the task is now, without asking anyone. */
  snapshot(): TaskView;
  update(inputResponses: unknown, dropped: readonly string[]): void;
  cancel(): Promise<void>;
  abandon(reason: string): void;
}

interface Entry extends Published {
  /** The task; once it ended, only what it ended as (finishedTask), so its call and session are let go. */
  task: RunningTask;
  kind: TaskKind;
  principal: string;
  /** Over: no longer counted as running. */
  ended: boolean;
  /** When it ended, and the bytes of its result or error (task-bounds.ts). */
  endedAt?: number;
  bytes?: number;
}

/** A task that ended: what it ended as, nothing more (a finished task's update and cancel change nothing). */
function finishedTask(view: TaskView): RunningTask {
  return { status: view.status, view: async () => view, snapshot: () => view, update() {}, cancel: async () => {}, abandon() {} };
}

/** The creating request, as far as a task needs it. */
export interface TaskFront {
  principal: string;
  capabilities: FrontCapabilities;
  /** The tool called. */
  tool: string;
  /** The span of the tools/call that creates the task, when traced. */
  origin?: TraceOrigin | undefined;
}

export class TaskTable {
  private readonly tasks = new Map<string, Entry>();
  /** Running tasks by principal. */
  private readonly running = new Map<string, number>();
  /** Told of every change of every task here (front/task-listen.ts: notifications/tasks). */
  private readonly watchers = new Set<(view: TaskView) => void>();
  private readonly stopSweeper: () => void;
  private readonly stopHeartbeat: () => void;
  private readonly liveness: Liveness | undefined;
  private readonly records: TaskRecords | undefined;

  constructor(private readonly opts: TaskTableOptions) {
    this.stopSweeper = opts.clock.every(SWEEP_MS, () => this.sweep());
    const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
    this.stopHeartbeat = opts.store === undefined ? () => {} : opts.clock.every(heartbeatMs, () => void this.heartbeat());
    this.records =
      opts.store === undefined
        ? undefined
        : new TaskRecords({
            store: opts.store,
            sealer: opts.sealer,
            instance: opts.instance,
            clock: opts.clock,
            log: opts.log,
            settled: (handle) => this.settled(handle),
            endedElsewhere: (handle, reason) => this.tasks.get(handle)?.task.abandon(reason),
          });
    this.liveness =
      opts.store === undefined
        ? undefined
        : new Liveness({
            store: opts.store,
            instance: opts.instance,
            aliveForMs: 3 * heartbeatMs,
            clock: opts.clock,
            log: opts.log,
            fence: () => this.fence(),
          });
  }

  /** Marks this instance alive, then writes again the records the store does not hold as written. */
  private async heartbeat(): Promise<void> {
    if (this.liveness === undefined || this.records === undefined || !(await this.liveness.mark())) return;
    const again = await this.records.reconcile([...this.tasks.values()]).catch((err: unknown) => {
      this.opts.log.debug('cannot compare task records with the state store', { error: (err as Error).message });
      return 0;
    });
    if (again > 0) this.opts.log.info('task records written again: the state store did not hold them as written', { tasks: again });
  }

  /** The mark lapsed: other instances fail this instance's running tasks when they read them, so it fails them too. */
  private fence(): void {
    const running = [...this.tasks.values()].filter((e) => !isTerminal(e.task.status));
    if (running.length === 0) return;
    this.opts.log.warn('this instance was not marked alive in the state store for too long: its running tasks fail', { tasks: running.length });
    for (const { task } of running)
      task.abandon('the proxy instance running the task lost the state store, or was paused, so other instances count it as gone');
  }

  /**
   * Takes over a legacy task the bridge's call just created: its session's lease, and the capabilities
   * of the request that created it. Resolves with the CreateTaskResult, once tasks/get finds the task.
   */
  async adopt(lease: SessionLease, legacy: LegacyTask, front: TaskFront): Promise<JsonObject> {
    const { handle, taskId, expiresAt } = await this.newId(front.principal, legacy.ttl ?? DEFAULT_TASK_TTL_MS);
    const task = new TranslatedTask({
      taskId,
      legacy,
      lease,
      capabilities: front.capabilities,
      operatorRoots: this.opts.operatorRoots(),
      clock: this.opts.clock,
      log: this.opts.log.child({ task: handle }),
      onChange: (view) => this.changed(handle, 'translated', front.tool, view),
      dropNotification: this.opts.dropNotification,
    });
    await this.register(handle, task, expiresAt, 'translated', front, { legacyTask: legacy.taskId });
    return createTaskResult(task.snapshot());
  }

  /** Runs a started legacy call as the proxy's own task. Resolves with the CreateTaskResult. */
  async host(interaction: Interaction, front: TaskFront, policy: HostedTaskPolicy, limits: { gatherMs: number; legacyVersion: string }): Promise<JsonObject> {
    const { handle, taskId, expiresAt } = await this.newId(front.principal, policy.ttlMs);
    interaction.runsAsTask();
    const task = new HostedTask({
      taskId,
      interaction,
      capabilities: front.capabilities,
      operatorRoots: this.opts.operatorRoots(),
      legacyVersion: limits.legacyVersion,
      policy,
      gatherMs: limits.gatherMs,
      clock: this.opts.clock,
      log: this.opts.log.child({ task: handle }),
      onChange: (view) => this.changed(handle, 'hosted', front.tool, view),
    });
    await this.register(handle, task, expiresAt, 'hosted', front, { call: interaction.handle });
    return createTaskResult(task.snapshot());
  }

  async get(taskId: unknown, principal: string): Promise<JsonObject> {
    const found = await this.find(taskId, principal);
    if (!('task' in found)) return detailedTask(await this.remoteView(found.claims, taskId as string));
    let shown = this.shown(found, await found.task.view());
    // Its end is being written: the answer waits for the store's reply (at most its deadline).
    if (shown === undefined) {
      await found.written;
      shown = this.shown(found, await found.task.view());
    }
    if (shown === undefined) throw endNotSettled();
    return detailedTask(shown);
  }

  async update(taskId: unknown, principal: string, inputResponses: unknown, dropped: readonly string[]): Promise<JsonObject> {
    const found = await this.find(taskId, principal);
    if ('task' in found) found.task.update(inputResponses, dropped);
    else await this.settledElsewhere(found.claims, taskId as string);
    return { ...TASK_ACK };
  }

  async cancel(taskId: unknown, principal: string): Promise<JsonObject> {
    const found = await this.find(taskId, principal);
    if ('task' in found) await found.task.cancel();
    else await this.settledElsewhere(found.claims, taskId as string);
    return { ...TASK_ACK };
  }

  /**
   * What a task of this instance is now, for `principal` to watch (subscriptions/listen); undefined
   * for anything else: another instance's task, another principal's, an unknown id.
   */
  async watchable(taskId: unknown, principal: string): Promise<TaskView | undefined> {
    const found = await this.find(taskId, principal).catch(() => undefined);
    return found !== undefined && 'task' in found ? this.shown(found, found.task.snapshot()) : undefined;
  }

  /** The principal's tasks still running here (each holds a legacy session: they count against its call limit). */
  runningOf(principal: string): number {
    return this.running.get(principal) ?? 0;
  }

  /** Hears every change of every task of this instance until the returned function is called. */
  watch(listener: (view: TaskView) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /**
   * The proxy stops: running tasks fail with a reason (their legacy calls or tasks are cancelled)
   * and are dropped; resolves once the store has their last status.
   */
  async close(reason = 'the proxy instance running the task stopped'): Promise<void> {
    this.stopSweeper();
    this.stopHeartbeat();
    for (const { task } of this.tasks.values()) task.abandon(reason);
    const writes = [...this.tasks.values()].map((e) => e.written);
    this.tasks.clear();
    await Promise.all(writes);
  }

  private async newId(principal: string, ttlMs: number): Promise<{ handle: string; taskId: string; expiresAt: number }> {
    const handle = randomUUID();
    const expiresAt = this.opts.clock.now() + ttlMs;
    const claims = taskClaims({ handle, instance: this.opts.instance, principal, upstream: this.opts.upstream, ownerUrl: this.opts.advertiseUrl });
    return { handle, taskId: await this.opts.sealer.seal(claims, expiresAt), expiresAt };
  }

  /**
   * The task is in the table, and in the store when there is one, before its id reaches the client.
   * A store that cannot be written is logged and costs only other instances' reads (they answer
   * that the task is gone): the task runs, and its owner serves it.
   */
  private async register(
    handle: string,
    task: RunningTask,
    expiresAt: number,
    kind: TaskKind,
    front: TaskFront,
    detail: Record<string, string>,
  ): Promise<void> {
    const entry: Entry = {
      handle,
      task,
      kind,
      principal: front.principal,
      expiresAt,
      written: Promise.resolve(),
      stored: false,
      ended: isTerminal(task.status),
    };
    this.tasks.set(handle, entry);
    if (!entry.ended) this.running.set(front.principal, this.runningOf(front.principal) + 1);
    this.opts.log.info('task created', { task: handle, kind, tool: front.tool, principal: principalTag(front.principal), ...detail });
    this.opts.observer?.onCreated({ task: handle, kind, tool: front.tool, principal: principalTag(front.principal), origin: front.origin });
    // A change before this point is in the snapshot written now.
    entry.written = this.liveness?.mark().then(() => {}) ?? Promise.resolve();
    this.records?.write(entry, task.snapshot());
    await entry.written;
  }

  private changed(handle: string, kind: TaskKind, tool: string, told: TaskView): void {
    const entry = this.tasks.get(handle);
    let view = told;
    const end = entry !== undefined && !entry.ended && isTerminal(view.status);
    // What it ended as is final here: a later word of the task (there should be none) changes nothing.
    if (entry?.ended && !end && entry.endedAt !== undefined) return;
    if (entry !== undefined && end) {
      entry.ended = true;
      const n = this.runningOf(entry.principal) - 1;
      if (n > 0) this.running.set(entry.principal, n);
      else this.running.delete(entry.principal);
      view = this.finish(entry, view);
    }
    if (isTerminal(view.status)) {
      this.opts.log.info('task ended', { task: handle, kind, status: view.status, ...(view.error ? { error: view.error.message } : {}) });
      this.opts.observer?.onEnded({ task: handle, kind, tool, status: view.status, error: view.error?.message });
    }
    if (entry === undefined) return this.notify(view);
    this.records?.write(entry, view);
    // A change the owner does not show yet (an end the store has not confirmed) is told once it is (settled).
    if (this.shown(entry, view) === view) this.notify(view);
    if (end) this.trimFinished(entry.principal);
  }

  /** A task's end: what is kept of it (a result too large is not), and only that from now on. */
  private finish(entry: Entry, view: TaskView): TaskView {
    const bounds = this.opts.bounds?.() ?? DEFAULT_TASK_BOUNDS;
    const bytes = resultBytes(view);
    const kept = keptView(view, bytes, bounds.maxResultBytes);
    if (kept !== view) {
      this.opts.log.warn("a task's result is larger than a task may keep: the task fails", { task: entry.handle, bytes, max: bounds.maxResultBytes });
      this.opts.observer?.onDropped?.({ task: entry.handle, kind: entry.kind, reason: 'result_too_large' });
    }
    entry.endedAt = this.opts.clock.now();
    entry.bytes = kept === view ? bytes : resultBytes(kept);
    entry.task = finishedTask(kept);
    return kept;
  }

  /** Drops a principal's oldest finished tasks past --max-finished-tasks or --max-finished-task-bytes (task-bounds.ts). */
  private trimFinished(principal: string): void {
    const bounds = this.opts.bounds?.() ?? DEFAULT_TASK_BOUNDS;
    const finished = [];
    for (const e of this.tasks.values()) {
      if (e.principal === principal && e.endedAt !== undefined) finished.push({ handle: e.handle, endedAt: e.endedAt, bytes: e.bytes ?? 0 });
    }
    for (const handle of finishedToDrop(finished, bounds)) {
      const entry = this.tasks.get(handle)!;
      this.tasks.delete(handle);
      this.opts.log.debug('finished task dropped: its principal keeps too many', { task: handle });
      this.opts.observer?.onDropped?.({ task: handle, kind: entry.kind, reason: 'finished_cap' });
      const store = this.opts.store;
      // After the writes queued before it, so none of them puts the record back.
      if (store !== undefined)
        entry.written = entry.written
          .then(() => store.dropTask(handle))
          .catch((err: unknown) => void this.opts.log.warn('cannot drop a task from the state store', { task: handle, error: (err as Error).message }));
    }
  }

  /** The store settled a task's end (confirmed it, or another instance's end stands): its watchers hear it. */
  private settled(handle: string): void {
    const entry = this.tasks.get(handle);
    const shown = entry && this.shown(entry, entry.task.snapshot());
    if (shown !== undefined) this.notify(shown);
  }

  private notify(view: TaskView): void {
    for (const watcher of this.watchers) watcher(view);
  }

  /**
   * What this instance tells clients of its own task (task-records.ts ownerShows); without a store,
   * the task as it is. Undefined while the store may or may not have the task's end.
   */
  private shown(entry: Entry, view: TaskView): TaskView | undefined {
    return this.records === undefined ? view : ownerShows(entry, view);
  }

  private sweep(): void {
    const now = this.opts.clock.now();
    for (const [handle, entry] of this.tasks) {
      if (entry.expiresAt > now) continue;
      entry.task.abandon('the task outlived its ttl');
      this.tasks.delete(handle);
      this.opts.log.debug('task expired', { task: handle });
    }
  }

  /** This instance's task, or the claims of another instance's (to be read from the store). */
  private async find(taskId: unknown, principal: string): Promise<Entry | { claims: TaskClaims }> {
    const claims = await this.opts.sealer
      .inspect(taskId)
      .catch((err: unknown) => (err instanceof StateError && err.reason === 'expired' ? 'expired' : undefined));
    if (claims === 'expired') throw unknownTask('the task has expired', 'expired');
    if (claims === undefined || claims.k !== 'task' || claims.u !== this.opts.upstream) throw unknownTask(UNKNOWN);
    if (claims.p !== principal) throw unknownTask(UNKNOWN);
    if (claims.i !== this.opts.instance) {
      if (this.opts.store === undefined) {
        throw unknownTask('the task belongs to another proxy instance, or to this one before it restarted, and is gone', 'owner_gone');
      }
      return { claims };
    }
    const entry = this.tasks.get(claims.h);
    if (entry === undefined || entry.expiresAt <= this.opts.clock.now()) throw unknownTask('the task has expired or is gone', 'expired');
    return entry;
  }

  /** Another instance's task, as the store has it; one whose owner is no longer alive is failed now. */
  private remoteView(claims: TaskClaims, taskId: string): Promise<TaskView> {
    return this.records!.remoteView(claims.i, claims.h, taskId);
  }

  /**
   * tasks/update or tasks/cancel of another instance's task that was not forwarded to its owner (no
   * --advertise-url, or the owner could not be reached): nothing to do for a task that is over (its
   * owner is gone, or it ended); a live owner out of reach is an error the client may retry.
   */
  private async settledElsewhere(claims: TaskClaims, taskId: string): Promise<void> {
    const view = await this.remoteView(claims, taskId);
    if (isTerminal(view.status)) return;
    throw new ProxyError(
      'upstream_unavailable',
      'owner_unreachable',
      claims.o === undefined
        ? 'the task runs on another proxy instance, and this one cannot forward to it: give every instance --advertise-url'
        : 'the task runs on another proxy instance, which this one cannot reach now; try again',
    );
  }
}

/** A task whose end was written with no reply yet: the store may have it or not, so no status is safe to tell. */
function endNotSettled(): ProxyError {
  return new ProxyError(
    'store_unavailable',
    'state_store_unavailable',
    "the state store has not confirmed this task's end yet, so no instance can answer for it now; try again",
  );
}
