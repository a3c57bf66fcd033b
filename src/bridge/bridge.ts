// The MRTR bridge: runs an interactive front request (tools/call, prompts/get, resources/read)
// against a legacy server. It admits the request (admission.ts), decides whether a first tools/call
// runs as a task (tasks/task-dispatch.ts), and hands it to the first mode that serves it
// (modes/mode.ts); each interaction is owned, from its first round to its end, by an
// InteractionOwner (owner.ts), whose events telemetry and the observers hear (event-listeners.ts).
import { ProxyError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/json.js';
import { fingerprint } from '../state/fingerprint.js';
import { Admission } from './admission.js';
import type { BoundCall, BridgeLimits, BridgeOptions, FrontCall } from './front-call.js';
import { modeContext } from './modes/context.js';
import type { HeldCalls } from './modes/held-call.js';
import type { Mode, ModeContext, ResumeTarget } from './modes/mode.js';
import { modesOf } from './modes/modes.js';
import { goneError, openState } from './retry.js';
import type { TaskAccess } from './tasks/task-access.js';
import { taskOf } from './tasks/task-dispatch.js';

export type { BridgeLimits, BridgeOptions, FrontCall } from './front-call.js';

/** How often suspensions nobody resumed are looked for. */
const EXPIRY_SWEEP_MS = 1000;

export class Bridge {
  private limits: BridgeLimits;
  private readonly ctx: ModeContext;
  private readonly stopSweeper: () => void;
  private readonly admission: Admission;
  private readonly calls: HeldCalls;
  /** Asked in order (modes/modes.ts); the held call, last, serves whatever no other mode does. */
  private readonly modes: readonly Mode[];

  constructor(private readonly opts: BridgeOptions) {
    this.limits = { ...opts.limits };
    this.ctx = modeContext(opts, () => this.limits);
    this.admission = new Admission(this.ctx.load, this.ctx.tasks, opts.sessions, () => this.limits);
    ({ calls: this.calls, modes: this.modes } = modesOf(this.ctx));
    this.stopSweeper = opts.clock.every(EXPIRY_SWEEP_MS, () => this.expire());
  }

  get suspendedCount(): number {
    return this.ctx.suspended.size;
  }

  /** Interactions a front request is attached to (waiting on the legacy server). */
  get runningCount(): number {
    return this.calls.runningCount;
  }

  /** Whether the proxy runs some of this upstream's tools as tasks of its own (tasks/hosted-task.ts). */
  get hostsTasks(): boolean {
    const tasks = this.limits.tasks;
    return tasks !== undefined && tasks.tools.length + tasks.required.length > 0;
  }

  /** The tasks this bridge runs, as the front's task methods and listens reach them. */
  taskAccess(): TaskAccess {
    return this.ctx.tasks;
  }

  async call(front: FrontCall): Promise<JsonObject> {
    const state = front.requestState;
    if (state !== undefined) return this.admission.run(front, 'resume', () => this.resume(front, state));
    const task = await taskOf(front, this.opts.tools, this.limits.tasks);
    const call: BoundCall = task === undefined ? front : { ...front, task };
    return this.admission.run(call, 'begin', () => this.begin(call));
  }

  /** Ends suspensions nobody resumed in time. */
  expire(): void {
    for (const owner of this.ctx.suspended.expire(this.ctx.clock.now())) {
      this.opts.log.info('interaction expired', { handle: owner.handle, round: owner.subject.round });
      owner.end({ reason: 'expired', why: 'the interaction expired' });
    }
  }

  /** A reload: the new limits apply to new calls and from the next round of running ones. */
  reconfigure(limits: BridgeLimits): void {
    this.limits = { ...limits };
  }

  async close(): Promise<void> {
    this.stopSweeper();
    const open = [...this.ctx.suspended.items(), ...this.calls.running()];
    for (const owner of open) owner.end({ reason: 'cancelled', why: 'the proxy is shutting down' });
    if (open.length > 0) this.opts.log.info('interactions ended: the proxy is shutting down', { count: open.length });
    await this.ctx.tasks.close();
  }

  private async begin(front: BoundCall): Promise<JsonObject> {
    this.ctx.telemetry.roundServed(front.record, 0, undefined);
    for (const mode of this.modes) {
      const taken = mode.begin?.(front);
      const answer = taken && (await taken);
      if (answer !== undefined) return answer;
    }
    throw new Error('no mode began the call');
  }

  /** A retry refused for its requestState: `data.reason` says why (retry.ts). */
  private async resume(front: FrontCall, token: string): Promise<JsonObject> {
    try {
      const target = await this.target(front, token);
      for (const mode of this.modes) {
        const taken = mode.resume?.(front, target);
        if (taken !== undefined) return await taken;
      }
      throw new Error('no mode resumed the call');
    } catch (err) {
      if (err instanceof ProxyError && (err.code === 'state_invalid' || err.code === 'interaction_gone'))
        this.ctx.telemetry.stateRejected(String(err.data?.['reason']));
      throw err;
    }
  }

  /** What a retry's requestState names: a replay state, or a held round still suspended here. */
  private async target(front: FrontCall, token: string): Promise<ResumeTarget> {
    const claims = await openState(this.opts.sealer, front.openedState ?? token, {
      instance: this.opts.instance,
      upstream: this.opts.upstream,
      principal: front.principal,
      fingerprint: fingerprint(front.identity),
    });
    if (claims.k === 'replay') return { claims };
    const seen = this.ctx.suspended.peek(claims.h, claims.r, this.ctx.clock.now());
    if (!seen.ok) throw goneError(seen);
    this.ctx.telemetry.roundServed(front.record, claims.r, seen.item.origin);
    return { claims, owner: seen.item };
  }
}
