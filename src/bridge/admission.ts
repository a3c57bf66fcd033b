// Whether a principal may start or continue a call now (principal-load.ts), with its running tasks
// counted as running calls, and the calls that may become tasks counted as tasks while they start,
// so a burst cannot pass the principal's task share before any of them is made.
import type { JsonObject } from '../protocol/json.js';
import type { BoundCall, BridgeLimits } from './front-call.js';
import type { SessionSource } from './ports.js';
import { type PrincipalLoad, taskShare } from './principal-load.js';

export class Admission {
  /** Calls that may become tasks and have not yet, by principal. */
  private readonly startingTasks = new Map<string, number>();

  constructor(
    private readonly load: PrincipalLoad,
    private readonly tasks: { runningOf(principal: string): number },
    private readonly sessions: SessionSource,
    private readonly limits: () => BridgeLimits,
  ) {}

  /** Runs `work` as one more running call of the front's principal, or refuses it with principal_limit. */
  async run(front: BoundCall, kind: 'begin' | 'resume', work: () => Promise<JsonObject>): Promise<JsonObject> {
    const { principal } = front;
    const limits = this.limits();
    const running = this.tasks.runningOf(principal);
    const share = this.sessions.waitingShare?.();
    if (kind === 'resume' || front.task === undefined || share === undefined) return this.load.run(principal, kind, limits, work, running);
    const task = { tasks: running + (this.startingTasks.get(principal) ?? 0), maxTasks: taskShare(share.max, limits.maxCallsPerPrincipal) };
    this.startingTasks.set(principal, (this.startingTasks.get(principal) ?? 0) + 1);
    try {
      return await this.load.run(principal, 'begin', limits, work, running, task);
    } finally {
      const n = (this.startingTasks.get(principal) ?? 1) - 1;
      if (n > 0) this.startingTasks.set(principal, n);
      else this.startingTasks.delete(principal);
    }
  }
}
