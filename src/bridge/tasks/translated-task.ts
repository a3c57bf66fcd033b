// One legacy server's task, seen by a 2026-07-28 client. The legacy task belongs to the session that
// created it, so the task keeps that session's lease (exclusive: nothing else runs on it) until the
// task ends. It holds a `tasks/result` request open the whole time, because a 2025-11-25 server
// sends a task's questions only on that stream; each question is parked under a fresh key until a
// tasks/update answers it, and tasks/get reports `input_required` only while the proxy actually
// holds one. The tasks/result answer ends the task.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FrontCapabilities } from '../../protocol/capabilities.js';
import { JSONRPC, LEGACY, type WireError } from '../../protocol/errors.js';
import { inputKey, inputRequestsOf, isInputMethod, type InputMethod, toInputRequest } from '../../protocol/input-requests.js';
import type { JsonObject, Root, ServerRequest } from '../../protocol/json.js';
import type { DropNotification } from '../interaction-types.js';
import type { BridgeSession, SessionHolder, SessionLease } from '../ports.js';
import { checkRetryAnswers } from '../retry.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../telemetry/logger.js';
import { screenQuestion } from './task-questions.js';
import { isTerminal, legacyEnd, type LegacyEnd, type LegacyTask, readLegacyTask, type TaskStatus, type TaskView } from './task-wire.js';

/** A question the legacy task asked, waiting for a tasks/update. */
interface Parked {
  key: string;
  method: InputMethod;
  request: { method: InputMethod; params?: Record<string, unknown> };
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

export interface TranslatedTaskOptions {
  /** The id clients use (sealed). */
  taskId: string;
  legacy: LegacyTask;
  lease: SessionLease;
  /** The capabilities of the request that created the task: what its questions may need. */
  capabilities: FrontCapabilities;
  operatorRoots: readonly Root[];
  clock: Clock;
  log: Logger;
  /** Told of every change of status, the end included. */
  onChange(view: TaskView): void;
  /** Told of a log line the task's legacy session sent: a task has no response stream to carry it. */
  dropNotification?: DropNotification | undefined;
}

/** How long a tasks/get waits for tasks/result once the legacy server says the task is over. */
const SETTLE_WAIT_MS = 2000;

export class TranslatedTask implements SessionHolder {
  readonly taskId: string;
  readonly legacyId: string;
  private legacy: LegacyTask;
  private lease: SessionLease | undefined;
  private readonly session: BridgeSession;
  private readonly open = new Map<string, Parked>();
  private seq = 0;
  private ended: LegacyEnd | undefined;
  private endedAt: string | undefined;
  private readonly resultAbort = new AbortController();
  private settled: Promise<void>;

  constructor(private readonly opts: TranslatedTaskOptions) {
    this.taskId = opts.taskId;
    this.legacy = opts.legacy;
    this.legacyId = opts.legacy.taskId;
    this.lease = opts.lease;
    this.session = opts.lease.session;
    this.settled = this.awaitResult();
  }

  get status(): TaskStatus {
    return this.ended?.status ?? (this.open.size > 0 ? 'input_required' : 'working');
  }

  /** What tasks/get answers. A running task asks the legacy server for its status message and times. */
  async view(): Promise<TaskView> {
    if (this.ended === undefined && this.open.size === 0) await this.refresh();
    return this.snapshot();
  }

  /** Delivers answers to the questions they name; keys of questions not (or no longer) open are ignored. */
  update(inputResponses: unknown, dropped: readonly string[]): void {
    if (this.ended !== undefined) return;
    // Checked whole (as a retry's answers are) before any is delivered: a bad answer loses none of the others.
    const { shaped } = checkRetryAnswers([...this.open.values()], { inputResponses, droppedInputKeys: dropped }, this.session.negotiatedVersion);
    for (const [key, result] of shaped) {
      this.open.get(key)!.resolve(result);
      this.open.delete(key);
    }
    if (shaped.size === 0) return;
    this.opts.log.debug('task questions answered', { task: this.legacyId, answered: shaped.size, open: this.open.size });
    this.opts.onChange(this.snapshot());
  }

  /** Cancels the legacy task unless it is over; cancelling a finished task is no error on this side. */
  async cancel(): Promise<void> {
    if (this.ended !== undefined) return;
    try {
      await this.session.request('tasks/cancel', { taskId: this.legacyId });
    } catch (err) {
      // The legacy server refuses to cancel a task that just finished: its tasks/result is on its way.
      if (!(err instanceof McpError) || this.session.closed) throw err;
      await this.settledWithin(SETTLE_WAIT_MS);
      if (this.ended !== undefined) return;
    }
    this.end({ status: 'cancelled' }, 'cancelled by the client', false);
  }

  /** The proxy stops: the task ends as failed, and the legacy task is cancelled when it can be. */
  abandon(reason: string): void {
    if (this.ended !== undefined) return;
    void this.session.request('tasks/cancel', { taskId: this.legacyId }).catch(() => {});
    this.end({ status: 'failed', error: { code: JSONRPC.INTERNAL_ERROR, message: reason } }, reason, false);
  }

  // --- SessionHolder: the legacy server's requests on the task's session come here.

  onServerRequest(request: ServerRequest, withdrawn: AbortSignal): Promise<JsonObject> {
    if (this.ended !== undefined) return Promise.reject(new McpError(JSONRPC.INTERNAL_ERROR, 'the task has ended'));
    const { method } = request;
    if (!isInputMethod(method)) return Promise.reject(new McpError(JSONRPC.METHOD_NOT_FOUND, `${method} is not something a 2026-07-28 client can be asked`));
    const turn = screenQuestion(method, request.params, this.opts.capabilities, this.opts.operatorRoots);
    if (turn.kind === 'answer') return Promise.resolve(turn.result);
    if (turn.kind === 'refuse') return Promise.reject(new McpError(turn.code, turn.message));
    return new Promise<JsonObject>((resolve, reject) => {
      const key = inputKey(method, this.seq++);
      this.open.set(key, { key, method, request: toInputRequest(method, request.params), resolve, reject });
      withdrawn.addEventListener('abort', () => this.open.delete(key) && this.opts.onChange(this.snapshot()), { once: true });
      this.opts.log.debug('task asks its client', { task: this.legacyId, key });
      this.opts.onChange(this.snapshot());
    });
  }

  onLog(params: JsonObject): void {
    this.opts.log.debug('legacy task log message', { task: this.legacyId, level: params['level'] });
    this.opts.dropNotification?.('notifications/message', 'task');
  }

  // ---

  /** What the task is now, without asking the legacy server. */
  snapshot(): TaskView {
    const ended = this.ended;
    const inputRequests = this.open.size === 0 ? undefined : inputRequestsOf(this.open.values());
    return {
      taskId: this.taskId,
      status: this.status,
      statusMessage: this.legacy.statusMessage,
      createdAt: this.legacy.createdAt,
      lastUpdatedAt: this.endedAt ?? this.legacy.lastUpdatedAt,
      ttlMs: this.legacy.ttl,
      pollIntervalMs: this.legacy.pollInterval,
      ...(ended?.status === 'completed' ? { result: ended.result } : {}),
      ...(ended?.status === 'failed' ? { error: ended.error } : {}),
      inputRequests,
    };
  }

  /** Reads the legacy task's status: its message and times are the client's too. */
  private async refresh(): Promise<void> {
    let fresh: LegacyTask | undefined;
    try {
      fresh = readLegacyTask(await this.session.request('tasks/get', { taskId: this.legacyId }));
    } catch (err) {
      this.opts.log.debug('legacy tasks/get failed', { task: this.legacyId, error: (err as Error).message });
      return;
    }
    if (fresh === undefined) return;
    this.legacy = {
      ...fresh,
      ttl: this.legacy.ttl,
      ...(fresh.pollInterval === undefined && this.legacy.pollInterval !== undefined ? { pollInterval: this.legacy.pollInterval } : {}),
    };
    // Over on the legacy side: its result is on the tasks/result stream, so wait for it briefly.
    if (isTerminal(fresh.status)) await this.settledWithin(SETTLE_WAIT_MS);
  }

  private settledWithin(ms: number): Promise<void> {
    return Promise.race([this.settled, this.opts.clock.sleep(ms)]);
  }

  /** Holds tasks/result open until the legacy task ends; its questions arrive meanwhile (onServerRequest). */
  private async awaitResult(): Promise<void> {
    let outcome: { result: JsonObject } | { error: WireError };
    try {
      outcome = {
        result: await this.session.request('tasks/result', { taskId: this.legacyId }, { holder: this, untied: true, signal: this.resultAbort.signal }),
      };
    } catch (err) {
      if (this.ended !== undefined) return;
      if (this.session.closed || !(err instanceof McpError) || err.code === LEGACY.CONNECTION_CLOSED) {
        const why = `the legacy server session ended while the task ran (${this.session.closeReason || (err as Error).message})`;
        this.end({ status: 'failed', error: { code: JSONRPC.INTERNAL_ERROR, message: why } }, why, false);
        return;
      }
      outcome = { error: { code: err.code, message: err.message, ...(err.data === undefined ? {} : { data: err.data }) } };
    }
    if (this.ended !== undefined) return;
    // tasks/result says what the task produced; only the final status says whether it was cancelled or failed.
    let status = 'completed';
    try {
      const last = readLegacyTask(await this.session.request('tasks/get', { taskId: this.legacyId }));
      if (last !== undefined) {
        status = last.status;
        this.legacy = { ...this.legacy, ...(last.statusMessage === undefined ? {} : { statusMessage: last.statusMessage }) };
      }
    } catch {
      status = 'error' in outcome ? 'failed' : 'completed';
    }
    this.end(legacyEnd(status, outcome, this.legacy.statusMessage), status, true);
  }

  /**
   * `settled`: the legacy server delivered the task's end, so its session is clean and goes back to
   * the pool; otherwise (cancelled, abandoned, lost) the legacy task may still be running there, and
   * the session is closed so nothing of it reaches another call.
   */
  private end(how: LegacyEnd, why: string, settled: boolean): void {
    if (this.ended !== undefined) return;
    this.ended = how;
    this.endedAt = new Date(this.opts.clock.now()).toISOString();
    this.resultAbort.abort(why);
    for (const p of this.open.values()) p.reject(new McpError(JSONRPC.INTERNAL_ERROR, `the task ended: ${why}`));
    this.open.clear();
    const lease = this.lease;
    this.lease = undefined;
    if (settled && !this.session.closed) lease?.release();
    else lease?.discard(why);
    this.opts.onChange(this.snapshot());
  }
}
