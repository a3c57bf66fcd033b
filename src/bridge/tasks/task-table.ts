// The tasks one proxy instance runs for one upstream, and the ids clients know them by: the legacy
// server's own tasks (translated-task.ts) and the proxy's tasks around plain calls (hosted-task.ts).
//
// An id is sealed like a requestState (state/seal.ts: encrypted and authenticated), naming the task,
// this instance, the upstream, the principal and, with --advertise-url, where this instance is
// reached: a forged or foreign id is an unknown task, and another principal's id is not found.
//
// A task runs in the process that created it. What other instances know of it:
// - with a task store (--state-store), every change of a task's status is written there, sealed,
//   until the task's ttl ends, and this instance says every few seconds that it is alive. Another
//   instance answers tasks/get from the record; a task whose owner stopped saying so before the
//   task ended is `failed`, with the reason. A proxy that stops fails its running tasks first;
// - tasks/update and tasks/cancel of a running task go to the owner (front/owner-forward.ts, with
//   --advertise-url); an instance that cannot reach a live owner says so;
// - without a store, another instance (or this one after a restart) is told the task is gone.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { FrontCapabilities } from '../../protocol/capabilities.js';
import { JSONRPC, ProxyError } from '../../protocol/errors.js';
import type { JsonObject, Root } from '../../protocol/json.js';
import { type Sealer, type StateClaims, StateError } from '../../state/seal.js';
import { principalTag } from '../../state/principal.js';
import type { TaskStore } from '../../state/task-store.js';
import type { Logger } from '../../telemetry/logger.js';
import type { TaskKind, TaskObserver, TraceOrigin } from '../../telemetry/ports.js';
import type { DropNotification, Interaction } from '../interaction.js';
import type { SessionLease } from '../ports.js';
import { HostedTask, type HostedTaskPolicy } from './hosted-task.js';
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

interface Entry {
  task: RunningTask;
  principal: string;
  /** When the task and its result are dropped. */
  expiresAt: number;
  /** The record writes, in order (each waits for the one before). */
  written: Promise<void>;
  /** Over: no longer counted as running. */
  ended: boolean;
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

/** What a task store holds for one task (sealed): enough for another instance's tasks/get. */
interface TaskRecord {
  /** The task's handle: a record copied under another task's key does not pass for it. */
  h: string;
  /** The owning instance. */
  o: string;
  /** When the record goes (ms). */
  e: number;
  view: Omit<TaskView, 'taskId'>;
}

/** What a forged, foreign or another principal's id is told (-32602): nothing of whose it is. */
const UNKNOWN = 'unknown taskId';

export class TaskTable {
  private readonly tasks = new Map<string, Entry>();
  /** Running tasks by principal. */
  private readonly running = new Map<string, number>();
  /** Told of every change of every task here (front/task-listen.ts: notifications/tasks). */
  private readonly watchers = new Set<(view: TaskView) => void>();
  private readonly stopSweeper: () => void;
  private readonly stopHeartbeat: () => void;
  /** When this instance last marked itself alive in the store (the mark lasts `aliveForMs` from then). */
  private markedAt: number | undefined;
  private readonly aliveForMs: number;

  constructor(private readonly opts: TaskTableOptions) {
    this.stopSweeper = opts.clock.every(SWEEP_MS, () => this.sweep());
    const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
    this.aliveForMs = 3 * heartbeatMs;
    this.stopHeartbeat = opts.store === undefined ? () => {} : opts.clock.every(heartbeatMs, () => void this.markAlive());
  }

  /** Tells other instances this one still runs its tasks (at start the store may not be connected yet: each new task says it too). */
  private async markAlive(): Promise<void> {
    const store = this.opts.store;
    if (store === undefined) return;
    const at = this.opts.clock.now();
    try {
      await store.markAlive(this.opts.instance, this.aliveForMs);
      this.markedAt = at;
    } catch (err) {
      this.opts.log.debug('cannot mark this instance alive', { error: (err as Error).message });
      // The mark has lapsed: other instances fail this instance's running tasks when they read them,
      // so it fails them too, rather than finish a task another instance told its client had failed.
      if (this.markedAt !== undefined && this.opts.clock.now() - this.markedAt >= this.aliveForMs) this.fence();
    }
  }

  private fence(): void {
    const running = [...this.tasks.values()].filter((e) => !isTerminal(e.task.status));
    if (running.length === 0) return;
    this.opts.log.warn('the state store has not heard from this instance for too long: its running tasks fail', { tasks: running.length });
    for (const { task } of running) task.abandon('the proxy instance running the task lost the state store, so other instances count it as gone');
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
    return detailedTask('task' in found ? await found.task.view() : await this.remoteView(found.claims, taskId as string));
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
    return found !== undefined && 'task' in found ? found.task.snapshot() : undefined;
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
    const claims: StateClaims = {
      h: handle,
      i: this.opts.instance,
      r: 0,
      p: principal,
      fp: 'task',
      k: 'task',
      u: this.opts.upstream,
      ...(this.opts.advertiseUrl === undefined ? {} : { o: this.opts.advertiseUrl }),
    };
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
    const entry: Entry = { task, principal: front.principal, expiresAt, written: Promise.resolve(), ended: isTerminal(task.status) };
    this.tasks.set(handle, entry);
    if (!entry.ended) this.running.set(front.principal, this.runningOf(front.principal) + 1);
    this.opts.log.info('task created', { task: handle, kind, tool: front.tool, principal: principalTag(front.principal), ...detail });
    this.opts.observer?.onCreated({ task: handle, kind, tool: front.tool, principal: principalTag(front.principal), origin: front.origin });
    // A change before this point is in the snapshot written now.
    entry.written = this.markAlive();
    this.write(handle, entry, task.snapshot());
    await entry.written;
  }

  private changed(handle: string, kind: TaskKind, tool: string, view: TaskView): void {
    const entry = this.tasks.get(handle);
    if (entry !== undefined && !entry.ended && isTerminal(view.status)) {
      entry.ended = true;
      const n = this.runningOf(entry.principal) - 1;
      if (n > 0) this.running.set(entry.principal, n);
      else this.running.delete(entry.principal);
    }
    if (isTerminal(view.status)) {
      this.opts.log.info('task ended', { task: handle, kind, status: view.status, ...(view.error ? { error: view.error.message } : {}) });
      this.opts.observer?.onEnded({ task: handle, kind, tool, status: view.status, error: view.error?.message });
    }
    if (entry !== undefined) this.write(handle, entry, view);
    for (const watcher of this.watchers) watcher(view);
  }

  private write(handle: string, entry: Entry, view: TaskView): void {
    const store = this.opts.store;
    if (store === undefined) return;
    const { taskId: _id, ...rest } = view;
    const record: TaskRecord = { h: handle, o: this.opts.instance, e: entry.expiresAt, view: rest };
    entry.written = entry.written
      .then(() => this.putRecord(store, record))
      .catch((err: unknown) => {
        this.opts.log.warn('cannot write a task to the state store', { task: handle, error: (err as Error).message });
      });
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
  private async find(taskId: unknown, principal: string): Promise<{ task: RunningTask } | { claims: StateClaims }> {
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
    return { task: entry.task };
  }

  /** Another instance's task, as the store has it; one whose owner is no longer alive is failed now. */
  private async remoteView(claims: StateClaims, taskId: string): Promise<TaskView> {
    const store = this.opts.store!;
    const record = await this.readRecord(store, claims);
    this.opts.log.debug('task read from the state store', { task: claims.h, status: record.view.status });
    if (!isTerminal(record.view.status) && !(await reach(() => store.isAlive(claims.i)))) {
      const message = 'the proxy instance running the task stopped before the task ended';
      const failed: TaskRecord = {
        ...record,
        view: {
          ...stripOpen(record.view),
          status: 'failed',
          lastUpdatedAt: new Date(this.opts.clock.now()).toISOString(),
          error: { code: JSONRPC.INTERNAL_ERROR, message },
        },
      };
      this.opts.log.info('task failed: its owner is gone', { task: claims.h, owner: claims.i });
      await reach(() => this.putRecord(store, failed));
      return { ...failed.view, taskId };
    }
    return { ...record.view, taskId };
  }

  /**
   * tasks/update or tasks/cancel of another instance's task that was not forwarded to its owner (no
   * --advertise-url, or the owner could not be reached): nothing to do for a task that is over (its
   * owner is gone, or it ended); a live owner out of reach is an error the client may retry.
   */
  private async settledElsewhere(claims: StateClaims, taskId: string): Promise<void> {
    const view = await this.remoteView(claims, taskId);
    if (isTerminal(view.status)) return;
    throw new ProxyError(
      'upstream_unavailable',
      claims.o === undefined
        ? 'the task runs on another proxy instance, and this one cannot forward to it: give every instance --advertise-url'
        : 'the task runs on another proxy instance, which this one cannot reach now; try again',
      { reason: 'owner_unreachable' },
    );
  }

  /** A record sealed (the store can neither read nor forge it) under its task's handle, until it expires. */
  private async putRecord(store: TaskStore, record: TaskRecord): Promise<void> {
    await store.putTask(record.h, await this.opts.sealer.sealRecord(record as unknown as JsonObject), record.e);
  }

  private async readRecord(store: TaskStore, claims: StateClaims): Promise<TaskRecord> {
    const token = await reach(() => store.getTask(claims.h));
    if (token === undefined) throw unknownTask('the task has expired or is gone', 'expired');
    const record = (await this.opts.sealer.openRecord(token).catch(() => undefined)) as TaskRecord | undefined;
    if (record === undefined || record.h !== claims.h || record.o !== claims.i) throw unknownTask(UNKNOWN);
    return record;
  }
}

function unknownTask(message: string, reason = 'unknown'): ProxyError {
  return new ProxyError('task_unknown', message, { reason });
}

/** A store command; an unreachable store is the client's error to retry, not an unknown task. */
async function reach<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (err) {
    throw new ProxyError('store_unavailable', `the state store cannot be reached, so no instance can answer for this task now: ${(err as Error).message}`, {
      reason: 'state_store_unavailable',
    });
  }
}

function stripOpen(view: Omit<TaskView, 'taskId'>): Omit<TaskView, 'taskId'> {
  const { inputRequests: _open, result: _result, ...rest } = view;
  return rest;
}
