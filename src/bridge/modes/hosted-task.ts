// The proxy's own task around a plain legacy call as a mode (tasks/hosted-task.ts runs the task):
// the call runs on a session of its own, since it may wait a long time for its client and nothing
// else should queue behind it. A task at once, or (the policy's `afterMs`) an ordinary held call
// first, handed over to a task once it ran that long in one round without ending or asking.
import { randomUUID } from 'node:crypto';
import { legacyCapabilitiesFor } from '../../protocol/capabilities.js';
import { ProxyError } from '../../protocol/errors.js';
import type { JsonObject } from '../../protocol/json.js';
import type { BoundCall } from '../front-call.js';
import { Interaction, type Stop } from '../interaction.js';
import type { InteractionOwner } from '../owner.js';
import type { HostedTaskPolicy } from '../tasks/hosted-task.js';
import type { HeldCalls } from './held-call.js';
import type { Mode, ModeContext, RunningCall } from './mode.js';
import { holdForTask, taskFront, taskShareFull } from './task-share.js';

export class HostedTaskMode implements Mode {
  /** Hosted calls that run as held calls until their policy's `afterMs` (the policy they started with). */
  private readonly hosting = new WeakMap<InteractionOwner, HostedTaskPolicy>();

  constructor(
    private readonly ctx: ModeContext,
    private readonly calls: HeldCalls,
  ) {}

  /** A hosted task asks for roots inside the task, like any question of its call: no roots round first. */
  begin(front: BoundCall): Promise<JsonObject> | undefined {
    return front.task === 'hosted' ? this.start(front) : undefined;
  }

  private async start(front: BoundCall): Promise<JsonObject> {
    const policy = this.ctx.limits().tasks;
    if (policy === undefined)
      throw new ProxyError('upstream_failed', 'tasks_not_configured', 'this upstream runs no tasks of the proxy (its configuration changed)');
    holdForTask(this.ctx);
    const lease = await this.ctx.opts.sessions.acquire(legacyCapabilitiesFor(front.capabilities), 'exclusive', front.roots, undefined, front.principal);
    if (policy.afterMs > 0) {
      const call = this.calls.open(front, lease);
      this.hosting.set(call.owner, policy);
      return this.calls.run(call);
    }
    holdForTask(this.ctx, lease);
    const { log, clock } = this.ctx;
    const interaction = new Interaction(randomUUID(), { method: front.method, params: front.params }, log, clock, this.ctx.dropNotification);
    interaction.start(lease, front.record);
    return this.ctx.tasks.host(interaction, taskFront(this.ctx, front), policy, {
      gatherMs: this.ctx.limits().gatherWindowMs,
      legacyVersion: lease.session.negotiatedVersion,
    });
  }

  roundMs(call: RunningCall): number | undefined {
    return this.hosting.get(call.owner)?.afterMs;
  }

  /** A hosted call that ran its policy's `afterMs` in one round without ending or asking goes on as a task. */
  onStop(call: RunningCall, stop: Stop): Promise<JsonObject> | undefined {
    const policy = stop.kind === 'timeout' ? this.hosting.get(call.owner) : undefined;
    return policy === undefined ? undefined : this.handOver(call, policy);
  }

  private async handOver(call: RunningCall, policy: HostedTaskPolicy): Promise<JsonObject> {
    const { owner, interaction, front } = call;
    this.hosting.delete(owner);
    this.ctx.log.debug('the call goes on as a task', { handle: owner.handle, round: interaction.round });
    const legacyVersion = interaction.session?.negotiatedVersion ?? '2025-11-25';
    if (!interaction.holdForTask()) {
      owner.end({ reason: 'cancelled', why: 'too many tasks hold legacy sessions' });
      throw taskShareFull();
    }
    owner.end({ reason: 'task' });
    return this.ctx.tasks.host(interaction, taskFront(this.ctx, front), policy, { gatherMs: this.ctx.limits().gatherWindowMs, legacyVersion });
  }
}
