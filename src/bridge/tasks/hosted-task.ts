// A task the proxy runs around a plain legacy call: for a tool the operator chose (the upstream's
// `tasks.tools`), on a legacy server that does not run it as a task itself, for a request that
// declares the tasks extension. The call runs on a session of its own while the client polls:
// - the legacy server's mid-call requests become the task's `input_required` status and its
//   inputRequests, and a tasks/update delivers the answers to the waiting legacy requests;
// - the call's answer ends the task: a result (one with `isError` too) is `completed`, a JSON-RPC
//   error or a lost session is `failed`;
// - tasks/cancel, the task's ttl running out, or the proxy stopping cancel the legacy call.
import { JSONRPC } from '../../protocol/errors.js';
import type { FrontCapabilities } from '../../protocol/capabilities.js';
import { classifyFailure } from '../../protocol/legacy-errors.js';
import { inputRequestsOf } from '../../protocol/input-requests.js';
import type { Root } from '../../protocol/json.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../telemetry/logger.js';
import { drive, GO_ON } from '../drive.js';
import type { Interaction, PendingInput } from '../interaction.js';
import { checkRetryAnswers } from '../retry.js';
import { screenQuestion } from './task-questions.js';
import { inlinedResult, type LegacyEnd, type TaskStatus, type TaskSupport, type TaskView } from './task-wire.js';

/** The operator's choice (config: an upstream's `tasks`). */
export interface HostedTaskPolicy {
  /** Tools run as the proxy's tasks for requests that declare the extension, as plain calls for others. */
  tools: readonly string[];
  /** Tools run only as the proxy's tasks: a request without the extension is refused (-32021). */
  required: readonly string[];
  /** How long a task lives from its creation (2026-07-28 `ttlMs`): its call is cancelled then, and its result dropped. */
  ttlMs: number;
  /** How long the client is told to wait between two tasks/get. */
  pollIntervalMs: number;
  /**
   * 0: the call is a task from the start. Otherwise it starts as an ordinary call (its result, or an
   * input_required round when the server asks first) and becomes a task once it has run this long
   * in one round without either.
   */
  afterMs: number;
}

/** A tool's task support as the proxy hosts it (`forbidden`: not hosted). */
export function hostedSupport(policy: HostedTaskPolicy | undefined, tool: string): TaskSupport {
  if (policy?.required.includes(tool)) return 'required';
  return policy?.tools.includes(tool) ? 'optional' : 'forbidden';
}

export interface HostedTaskOptions {
  /** The id clients use (sealed). */
  taskId: string;
  /** The legacy call, started on a lease of its own. */
  interaction: Interaction;
  /** The capabilities of the request that created the task: what its questions may need. */
  capabilities: FrontCapabilities;
  operatorRoots: readonly Root[];
  /** The legacy revision of the call's session (answers are shaped for it). */
  legacyVersion: string;
  policy: HostedTaskPolicy;
  /** How long the proxy gathers the server's questions before it shows them (--gather-window). */
  gatherMs: number;
  clock: Clock;
  log: Logger;
  /** Told of every change of status, the end included. */
  onChange(view: TaskView): void;
}

export class HostedTask {
  readonly taskId: string;
  private readonly interaction: Interaction;
  private readonly startedAt: number;
  private lastUpdatedAt: string;
  /** The questions the client is shown (asked, not yet answered). */
  private asked: PendingInput[] = [];
  private ended: LegacyEnd | undefined;
  /** Ends the loop's waits: the task was cancelled or abandoned. */
  private readonly stop = new AbortController();
  /** Wakes the loop when answers arrive. */
  private answered = new AbortController();

  constructor(private readonly opts: HostedTaskOptions) {
    this.taskId = opts.taskId;
    this.interaction = opts.interaction;
    this.startedAt = opts.clock.now();
    this.lastUpdatedAt = this.iso(this.startedAt);
    void this.run();
  }

  get status(): TaskStatus {
    return this.ended?.status ?? (this.asked.length > 0 ? 'input_required' : 'working');
  }

  async view(): Promise<TaskView> {
    return this.snapshot();
  }

  /** Delivers answers to the questions they name; keys of questions not (or no longer) open are ignored. */
  update(inputResponses: unknown, dropped: readonly string[]): void {
    if (this.ended !== undefined || this.asked.length === 0) return;
    // Checked whole (as a retry's answers are) before any is delivered: a bad answer loses none of the others.
    const { shaped } = checkRetryAnswers(this.asked, { inputResponses, droppedInputKeys: dropped }, this.opts.legacyVersion);
    if (shaped.size === 0) return;
    for (const [key, result] of shaped) this.interaction.answer(key, result);
    this.asked = this.asked.filter((p) => !shaped.has(p.key));
    this.opts.log.debug('task questions answered', { answered: shaped.size, open: this.asked.length });
    this.changed();
    this.answered.abort();
  }

  /** Cancels the legacy call unless the task is over; cancelling a finished task is no error. */
  async cancel(): Promise<void> {
    this.end({ status: 'cancelled' }, 'cancelled by the client');
  }

  /** The task ends as failed (the proxy stops, or the task outlived its ttl), its legacy call cancelled. */
  abandon(reason: string): void {
    this.end({ status: 'failed', error: { code: JSONRPC.INTERNAL_ERROR, message: reason } }, reason);
  }

  /** The task's legacy call, through the loop every call runs through (drive.ts), until it ends. */
  private run(): Promise<void> {
    const deadline = this.startedAt + this.opts.policy.ttlMs;
    const { gatherMs, clock } = this.opts;
    const left = () => Math.max(0, deadline - clock.now());
    return drive<void>(this.interaction, {
      wait: () => ({ gatherMs, timeoutMs: left(), signal: this.stop.signal }),
      turn: async (stop) => {
        if (this.ended !== undefined) return;
        switch (stop.kind) {
          case 'input':
            this.show(stop.pending);
            if (this.asked.length > 0) {
              // Until the client answers, or the server asks again, withdraws, or ends the call.
              await this.interaction.changed(left(), AbortSignal.any([this.stop.signal, this.answered.signal]));
              if (this.answered.signal.aborted) this.answered = new AbortController();
              // A question the server withdrew (its own timeout) is asked no more, even when none is left to show.
              if (this.ended === undefined) this.show(this.interaction.unanswered());
            }
            return this.ended === undefined ? GO_ON : undefined;
          case 'complete':
            return this.end({ status: 'completed', result: inlinedResult(stop.result) }, 'completed');
          case 'error': {
            const failure = classifyFailure(stop.error, stop.lost);
            const error =
              failure.kind === 'error'
                ? failure.error
                : {
                    code: JSONRPC.INTERNAL_ERROR,
                    message: failure.kind === 'lost' ? failure.message : `the legacy server requires URL elicitation: ${failure.message}`,
                  };
            return this.end({ status: 'failed', error }, 'failed');
          }
          case 'timeout':
            return this.abandon(`the call outlived the task's ttl (${Math.round(this.opts.policy.ttlMs / 1000)} s)`);
          case 'aborted':
            return;
        }
      },
    });
  }

  /** The server's open questions: answered or refused here where they can be, the rest shown to the client. */
  private show(pending: readonly PendingInput[]): void {
    const rest: PendingInput[] = [];
    for (const p of pending) {
      const turn = screenQuestion(p.method, p.request.params, this.opts.capabilities, this.opts.operatorRoots);
      if (turn.kind === 'answer') this.interaction.answer(p.key, turn.result);
      else if (turn.kind === 'refuse') this.interaction.refuse(p.key, turn.code, turn.message);
      else rest.push(p);
    }
    const before = this.asked.map((p) => p.key).join();
    this.asked = rest;
    if (rest.map((p) => p.key).join() !== before) {
      this.opts.log.debug('task asks its client', { inputs: rest.map((p) => p.key) });
      this.changed();
    }
  }

  private end(how: LegacyEnd, why: string): void {
    if (this.ended !== undefined) return;
    this.ended = how;
    this.asked = [];
    this.stop.abort(why);
    // Ends the legacy call: open requests are answered (an elicitation `cancel`), the call is cancelled upstream if it still runs.
    this.interaction.end(why);
    this.changed();
  }

  private changed(): void {
    this.lastUpdatedAt = this.iso(this.opts.clock.now());
    this.opts.onChange(this.snapshot());
  }

  /** What the task is now. */
  snapshot(): TaskView {
    const ended = this.ended;
    return {
      taskId: this.taskId,
      status: this.status,
      createdAt: this.iso(this.startedAt),
      lastUpdatedAt: this.lastUpdatedAt,
      ttlMs: this.opts.policy.ttlMs,
      pollIntervalMs: this.opts.policy.pollIntervalMs,
      ...(ended?.status === 'completed' ? { result: ended.result } : {}),
      ...(ended?.status === 'failed' ? { error: ended.error } : {}),
      ...(this.asked.length === 0 ? {} : { inputRequests: inputRequestsOf(this.asked) }),
    };
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }
}
