// The tasks one proxy instance holds for one upstream, and the ids clients know them by. An id is
// sealed like a requestState (state/seal.ts: encrypted and authenticated), naming the task, this
// instance, the upstream, the principal and, with --advertise-url, where this instance is reached:
// a forged or foreign id is an unknown task, and another principal's id is not found. The tasks
// themselves live in this process: a request for one reaching another instance, or this one after
// a restart, is told the task is gone (-32602); nothing forwards it to its owner yet.
import { randomUUID } from 'node:crypto';
import type { SessionLease } from '../ports.js';
import type { Clock } from '../../clock.js';
import type { FrontCapabilities } from '../../protocol/capabilities.js';
import { ProxyError } from '../../protocol/errors.js';
import type { JsonObject, Root } from '../../protocol/json.js';
import { type Sealer, StateError } from '../../state/seal.js';
import { principalTag } from '../../state/principal.js';
import type { Logger } from '../../telemetry/logger.js';
import { createTaskResult, detailedTask, TASK_ACK, type LegacyTask } from './task-wire.js';
import { TranslatedTask } from './translated-task.js';

/** How long a task and its result are kept when the legacy server gives no ttl. */
export const DEFAULT_TASK_TTL_MS = 60 * 60 * 1000;
/** How often tasks past their ttl are looked for. */
const SWEEP_MS = 5000;

export interface TaskTableOptions {
  sealer: Sealer;
  /** This process and upstream (the `i` of the ids it seals). */
  instance: string;
  /** The upstream's route name. */
  upstream: string;
  /** This instance's base URL as other instances reach it; unset: one instance. */
  advertiseUrl?: string | undefined;
  operatorRoots(): readonly Root[];
  clock: Clock;
  log: Logger;
}

interface Entry {
  task: TranslatedTask;
  /** When the task and its result are dropped. */
  expiresAt: number;
}

/** What a forged, foreign or another principal's id is told (-32602): nothing of whose it is. */
const UNKNOWN = 'unknown taskId';

export class TaskTable {
  private readonly tasks = new Map<string, Entry>();
  private readonly stopSweeper: () => void;

  constructor(private readonly opts: TaskTableOptions) {
    this.stopSweeper = opts.clock.every(SWEEP_MS, () => this.sweep());
  }

  /**
   * Takes over a legacy task the bridge's call just created: its session's lease, and the capabilities
   * of the request that created it. Resolves with the CreateTaskResult, once tasks/get finds the task.
   */
  async adopt(lease: SessionLease, legacy: LegacyTask, front: { principal: string; capabilities: FrontCapabilities }): Promise<JsonObject> {
    const handle = randomUUID();
    const retention = legacy.ttl ?? DEFAULT_TASK_TTL_MS;
    const expiresAt = this.opts.clock.now() + retention;
    const taskId = await this.opts.sealer.seal(
      {
        h: handle,
        i: this.opts.instance,
        r: 0,
        p: front.principal,
        fp: 'task',
        k: 'task',
        u: this.opts.upstream,
        ...(this.opts.advertiseUrl === undefined ? {} : { o: this.opts.advertiseUrl }),
      },
      expiresAt,
    );
    const task = new TranslatedTask({
      taskId,
      legacy,
      lease,
      capabilities: front.capabilities,
      operatorRoots: this.opts.operatorRoots(),
      clock: this.opts.clock,
      log: this.opts.log.child({ task: handle }),
      onEnd: (status) => this.opts.log.info('task ended', { task: handle, status }),
    });
    this.tasks.set(handle, { task, expiresAt });
    this.opts.log.info('task created', { task: handle, principal: principalTag(front.principal), legacyTask: legacy.taskId });
    return createTaskResult({
      taskId,
      status: task.status,
      createdAt: legacy.createdAt,
      lastUpdatedAt: legacy.lastUpdatedAt,
      ttlMs: legacy.ttl,
      pollIntervalMs: legacy.pollInterval,
      ...(legacy.statusMessage === undefined ? {} : { statusMessage: legacy.statusMessage }),
    });
  }

  async get(taskId: unknown, principal: string): Promise<JsonObject> {
    const task = await this.find(taskId, principal);
    return detailedTask(await task.view());
  }

  async update(taskId: unknown, principal: string, inputResponses: unknown, dropped: readonly string[]): Promise<JsonObject> {
    const task = await this.find(taskId, principal);
    task.update(inputResponses, dropped);
    return { ...TASK_ACK };
  }

  async cancel(taskId: unknown, principal: string): Promise<JsonObject> {
    const task = await this.find(taskId, principal);
    await task.cancel();
    return { ...TASK_ACK };
  }

  /** The proxy stops: running tasks fail with a reason (their legacy tasks are cancelled), and all are dropped. */
  close(reason = 'the proxy is shutting down'): void {
    this.stopSweeper();
    for (const { task } of this.tasks.values()) task.abandon(reason);
    this.tasks.clear();
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

  private async find(taskId: unknown, principal: string): Promise<TranslatedTask> {
    const claims = await this.opts.sealer
      .inspect(taskId)
      .catch((err: unknown) => (err instanceof StateError && err.reason === 'expired' ? 'expired' : undefined));
    if (claims === 'expired') throw unknownTask('the task has expired', 'expired');
    if (claims === undefined || claims.k !== 'task' || claims.u !== this.opts.upstream) throw unknownTask(UNKNOWN);
    if (claims.p !== principal) throw unknownTask(UNKNOWN);
    if (claims.i !== this.opts.instance) {
      throw unknownTask('the task belongs to another proxy instance, or to this one before it restarted, and is gone', 'owner_gone');
    }
    const entry = this.tasks.get(claims.h);
    if (entry === undefined || entry.expiresAt <= this.opts.clock.now()) throw unknownTask('the task has expired or is gone', 'expired');
    return entry.task;
  }
}

function unknownTask(message: string, reason = 'unknown'): ProxyError {
  return new ProxyError('task_unknown', message, { reason });
}
