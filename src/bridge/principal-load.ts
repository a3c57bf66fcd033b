// What each principal holds of a bridge: calls running now (each holds a legacy session, as each
// running task does) and interactions waiting for its input. One principal at its limits is refused; others are not held
// back by it. The decision is a pure function of the counts.
//
// Tasks hold a legacy session each for as long as they run, like a call waiting for its client, so
// they draw on the same share of the sessions (--waiting-share). One principal may hold at most half
// of that share as tasks (taskShare): with the defaults on a stdio upstream (16 sessions, 12 for
// waiting calls and tasks) that is 6, so one principal's tasks leave other principals both tasks
// and the sessions their plain calls need.
import { ProxyError } from '../protocol/errors.js';
import { ANONYMOUS } from '../state/principal.js';

export interface PrincipalLimits {
  maxCallsPerPrincipal: number;
  maxInteractionsPerPrincipal: number;
}

export interface Load {
  /** Calls running now, and tasks (each holds a legacy session too). */
  running: number;
  waiting: number;
}

/** A call that may become a task, and what the principal already runs as tasks. */
export interface TaskLoad {
  /** The principal's tasks running now. */
  tasks: number;
  /** The most it may run (taskShare). */
  maxTasks: number;
}

/**
 * How many tasks one principal may run at once: half the sessions calls and tasks may hold while
 * they wait (`maxWaiting`, from --waiting-share), at least one, and never more than
 * --max-calls-per-principal. Half, so that no one principal can take what every other needs.
 */
export function taskShare(maxWaiting: number, maxCallsPerPrincipal: number): number {
  return Math.max(1, Math.min(maxCallsPerPrincipal, Math.floor(maxWaiting / 2)));
}

/**
 * Why a principal may not start (`begin`) or continue (`resume`) a call now; undefined when it may.
 * `task`: the call may become a task (the principal's tasks are counted against taskShare).
 */
export function overLimit(
  load: Load,
  limits: PrincipalLimits,
  kind: 'begin' | 'resume',
  task?: TaskLoad,
): { limit: string; max: number; message: string } | undefined {
  if (kind === 'begin' && task !== undefined && task.tasks >= task.maxTasks) {
    return {
      limit: 'maxTasksPerPrincipal',
      max: task.maxTasks,
      message: `this principal already has ${task.tasks} tasks running, each holding a legacy session (at most ${task.maxTasks}: half the --waiting-share of --max-sessions); retry when one ends, or cancel one`,
    };
  }
  if (load.running >= limits.maxCallsPerPrincipal) {
    return {
      limit: 'maxCallsPerPrincipal',
      max: limits.maxCallsPerPrincipal,
      message: `this principal already has ${load.running} calls or tasks running (--max-calls-per-principal ${limits.maxCallsPerPrincipal}); retry when one completes`,
    };
  }
  // A resume turns a waiting interaction into a running one: it never adds to the waiting.
  if (kind === 'begin' && load.waiting >= limits.maxInteractionsPerPrincipal) {
    return {
      limit: 'maxInteractionsPerPrincipal',
      max: limits.maxInteractionsPerPrincipal,
      message: `this principal already has ${load.waiting} interactions waiting for input (--max-interactions-per-principal ${limits.maxInteractionsPerPrincipal}); answer or abandon one first`,
    };
  }
  return undefined;
}

export class PrincipalLoad {
  /**
   * Runs `work` as one more running call of `principal`, or refuses it with principal_limit.
   * `tasks`: the principal's running tasks, which count as running calls; `task`: set when this
   * call may become a task. `anonymous` is never
   * capped: without authentication it is every caller, so its cap would be global.
   */
  async run<T>(principal: string, kind: 'begin' | 'resume', limits: PrincipalLimits, work: () => Promise<T>, tasks = 0, task?: TaskLoad): Promise<T> {
    const load = this.of(principal);
    const over = principal === ANONYMOUS ? undefined : overLimit({ ...load, running: load.running + tasks }, limits, kind, task);
    if (over) throw new ProxyError('principal_limit', 'principal_limit', over.message, { limit: over.limit, max: over.max });
    this.enter(principal);
    try {
      return await work();
    } finally {
      this.leave(principal);
    }
  }

  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Set<string>>();
  private readonly ownerOf = new Map<string, string>();

  of(principal: string): Load {
    return { running: this.running.get(principal) ?? 0, waiting: this.waiting.get(principal)?.size ?? 0 };
  }

  enter(principal: string): void {
    this.running.set(principal, (this.running.get(principal) ?? 0) + 1);
  }

  leave(principal: string): void {
    const n = (this.running.get(principal) ?? 1) - 1;
    if (n <= 0) this.running.delete(principal);
    else this.running.set(principal, n);
  }

  /** The interaction now waits for this principal's input. */
  wait(principal: string, handle: string): void {
    const set = this.waiting.get(principal) ?? new Set<string>();
    this.waiting.set(principal, set);
    set.add(handle);
    this.ownerOf.set(handle, principal);
  }

  /** The interaction no longer waits (resumed, ended or expired); idempotent. */
  settle(handle: string): void {
    const principal = this.ownerOf.get(handle);
    if (principal === undefined) return;
    this.ownerOf.delete(handle);
    const set = this.waiting.get(principal);
    set?.delete(handle);
    if (set?.size === 0) this.waiting.delete(principal);
  }
}
