// The MRTR bridge: runs an interactive front request (tools/call, prompts/get, resources/read)
// against a legacy server. It admits the request (admission.ts), decides whether a first tools/call
// runs as a task (tasks/task-dispatch.ts), and hands it to the first mode that serves it
// (modes/mode.ts); each interaction is owned, from its first round to its end, by an
// InteractionOwner (owner.ts), whose events telemetry and the observers hear (event-listeners.ts).
import type { Clock } from '../clock.js';
import { ProxyError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/json.js';
import { fingerprint } from '../state/fingerprint.js';
import { NO_TELEMETRY, type UpstreamTelemetry } from '../telemetry/ports.js';
import { Admission } from './admission.js';
import { allOf, observerListener, telemetryListener } from './event-listeners.js';
import type { BoundCall, BridgeLimits, BridgeOptions, FrontCall } from './front-call.js';
import type { DropNotification } from './interaction.js';
import { HeldCalls } from './modes/held-call.js';
import { HostedTaskMode } from './modes/hosted-task.js';
import { LegacyTaskMode } from './modes/legacy-task.js';
import type { Mode, ModeContext, ResumeTarget } from './modes/mode.js';
import { ReplayMode } from './modes/replay.js';
import { RootsMode } from './modes/roots.js';
import { UrlConsentMode } from './modes/url-consent.js';
import { InteractionOwner } from './owner.js';
import { PrincipalLoad } from './principal-load.js';
import { goneError, openState } from './retry.js';
import { SuspensionTable } from './suspensions.js';
import type { TaskAccess } from './tasks/task-access.js';
import { taskOf } from './tasks/task-dispatch.js';
import { bridgeTaskTable } from './tasks/bridge-tasks.js';

export type { BridgeLimits, BridgeOptions, FrontCall } from './front-call.js';

/** How often suspensions nobody resumed are looked for. */
const EXPIRY_SWEEP_MS = 1000;

export class Bridge {
  private readonly suspended = new SuspensionTable<InteractionOwner>();
  private readonly clock: Clock;
  private readonly stopSweeper: () => void;
  private limits: BridgeLimits;
  private readonly telemetry: UpstreamTelemetry;
  private readonly ctx: ModeContext;
  private readonly admission: Admission;
  private readonly calls: HeldCalls;
  /** Asked in this order; the held call, last, serves whatever no other mode does. */
  private readonly modes: readonly Mode[];

  constructor(private readonly opts: BridgeOptions) {
    this.clock = opts.clock;
    this.limits = { ...opts.limits };
    this.telemetry = opts.telemetry ?? NO_TELEMETRY;
    this.stopSweeper = this.clock.every(EXPIRY_SWEEP_MS, () => this.expire());
    const dropNotification: DropNotification = (method, reason, detail) => this.telemetry.notificationDropped(method, reason, detail);
    const load = new PrincipalLoad();
    const emit = allOf([telemetryListener(this.telemetry), ...(opts.observer ? [observerListener(opts.observer)] : [])]);
    const owners = { suspended: this.suspended, load, emit };
    this.ctx = {
      opts,
      clock: opts.clock,
      log: opts.log,
      telemetry: this.telemetry,
      limits: () => this.limits,
      suspended: this.suspended,
      load,
      tasks: bridgeTaskTable(opts, () => this.limits, dropNotification),
      dropNotification,
      own: (subject, principal, origin) => new InteractionOwner(subject, principal, owners, origin),
    };
    this.admission = new Admission(load, this.ctx.tasks, opts.sessions, () => this.limits);
    this.calls = new HeldCalls(this.ctx, () => this.modes);
    const modes = [HostedTaskMode, RootsMode, LegacyTaskMode, UrlConsentMode, ReplayMode].map((Kind) => new Kind(this.ctx, this.calls));
    this.modes = [...modes, this.calls];
  }

  get suspendedCount(): number {
    return this.suspended.size;
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
    for (const owner of this.suspended.expire(this.clock.now())) {
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
    const open = [...this.suspended.items(), ...this.calls.running()];
    for (const owner of open) owner.end({ reason: 'cancelled', why: 'the proxy is shutting down' });
    if (open.length > 0) this.opts.log.info('interactions ended: the proxy is shutting down', { count: open.length });
    await this.ctx.tasks.close();
  }

  private async begin(front: BoundCall): Promise<JsonObject> {
    this.telemetry.roundServed(front.record, 0, undefined);
    for (const mode of this.modes) {
      const answer = await mode.begin?.(front);
      if (answer !== undefined) return answer;
    }
    throw new Error('no mode began the call');
  }

  /** A retry refused for its requestState: `data.reason` says why (retry.ts). */
  private async resume(front: FrontCall, token: string): Promise<JsonObject> {
    try {
      const target = await this.target(front, token);
      for (const mode of this.modes) {
        const answer = await mode.resume?.(front, target);
        if (answer !== undefined) return answer;
      }
      throw new Error('no mode resumed the call');
    } catch (err) {
      if (err instanceof ProxyError && (err.code === 'state_invalid' || err.code === 'interaction_gone'))
        this.telemetry.stateRejected(String(err.data?.['reason']));
      throw err;
    }
  }

  /** What a retry's requestState names: a replay state, or a held round still suspended here. */
  private async target(front: FrontCall, token: string): Promise<ResumeTarget> {
    const claims = await openState(this.opts.sealer, token, {
      instance: this.opts.instance,
      upstream: this.opts.upstream,
      principal: front.principal,
      fingerprint: fingerprint(front.identity),
    });
    if (claims.k === 'replay') return { claims };
    const seen = this.suspended.peek(claims.h, claims.r, this.clock.now());
    if (!seen.ok) throw goneError(seen);
    this.telemetry.roundServed(front.record, claims.r, seen.item.origin);
    return { claims, owner: seen.item };
  }
}
