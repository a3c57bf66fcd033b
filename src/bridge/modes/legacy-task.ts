// A legacy server's own task as a mode: a call that may become one is sent task-augmented on a
// session of its own, since the task will belong to that session. Questions the server asks before
// it creates the task are held rounds like any call's (a replay would create a second task); its
// answer with a task ends the call and hands the session to the task table (translated-task.ts).
import { legacyCapabilitiesFor } from '../../protocol/capabilities.js';
import { ProxyError } from '../../protocol/errors.js';
import type { JsonObject } from '../../protocol/json.js';
import type { BoundCall } from '../front-call.js';
import type { Stop } from '../interaction.js';
import { DEFAULT_TASK_TTL_MS } from '../tasks/task-table.js';
import type { LegacyTask } from '../tasks/task-wire.js';
import type { HeldCalls } from './held-call.js';
import type { Mode, ModeContext, RunningCall } from './mode.js';
import { holdForTask, taskFront } from './task-share.js';

export class LegacyTaskMode implements Mode {
  constructor(
    private readonly ctx: ModeContext,
    private readonly calls: HeldCalls,
  ) {}

  begin(front: BoundCall): Promise<JsonObject> | undefined {
    return front.task === 'legacy' ? this.start(front) : undefined;
  }

  private async start(front: BoundCall): Promise<JsonObject> {
    holdForTask(this.ctx);
    const lease = await this.ctx.opts.sessions.acquire(legacyCapabilitiesFor(front.capabilities), 'exclusive', front.roots, undefined, front.principal);
    holdForTask(this.ctx, lease);
    return this.calls.run(this.calls.open({ ...front, params: { ...front.params, task: { ttl: DEFAULT_TASK_TTL_MS } } }, lease));
  }

  /** The call answered with a legacy task: the call is over, and the task goes on with its session. */
  onStop(call: RunningCall, stop: Stop): Promise<JsonObject> | undefined {
    const created = stop.kind === 'complete' ? call.interaction.createdTask : undefined;
    return stop.kind === 'complete' && created !== undefined ? this.adopt(call, stop.result, created) : undefined;
  }

  private async adopt(call: RunningCall, result: JsonObject, created: LegacyTask): Promise<JsonObject> {
    const { owner, interaction, front } = call;
    const lease = interaction.takeTaskLease();
    owner.end({ reason: 'completed', result });
    if (!lease) throw new ProxyError('upstream_failed', 'legacy_session_lost', 'the legacy server created the task, but its session ended at once');
    // Its place in the waiting share was taken before the call was sent; a round in between may have given it back.
    if (!lease.markWaiting()) this.ctx.log.debug('a legacy task holds its session past the waiting share');
    return await this.ctx.tasks.adopt(lease, created, taskFront(this.ctx, front));
  }
}
