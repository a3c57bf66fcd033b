// The upstream cluster: how to open a legacy session to the configured server, the pool of them,
// a control session that describes the server and carries resource subscriptions, and the
// non-interactive forwarding path (lists, completion, vendor methods). A reload reconfigures it in
// place: new calls get sessions of the new configuration while held ones finish on the old.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SessionScope, UpstreamConfig, UpstreamTarget } from '../config/types.js';
import { capabilityKey, type LegacyCapabilities, ROOTS_CAPABILITY } from '../protocol/capabilities.js';
import type { JsonObject, Root } from '../protocol/json.js';
import { rootsServed, sessionCapabilities, type RootsBinding } from '../protocol/roots.js';
import type { Cancel, Clock } from '../clock.js';
import type { Logger } from '../telemetry/logger.js';
import { type FrontRecord, NO_TELEMETRY, type NotificationDrop, type UpstreamTelemetry } from '../telemetry/ports.js';
import { learnedFor, type Learned } from './learned.js';
import { ProxyError } from '../protocol/errors.js';
import { SessionPool, waitingCap, type Lease, type LeaseMode, type PoolStats } from './pool/pool.js';
import { LegacySession, type SessionHooks, type UpstreamInfo } from './session.js';
import type { UpstreamResources } from './resources.js';
import { createSseTransport } from './transport/sse-transport.js';
import { createStdioTransport, StdioTransport } from './transport/stdio-transport.js';
import { minimalEnvironmentHint } from './child/child-environment.js';
import { createHttpTransport } from './transport/streamable-http-transport.js';
import { ToolSchemas } from './tool-schemas.js';
import { ResourceCatalog } from './resource-catalog.js';
import type { ResourceName } from '../protocol/resource-names.js';
import { startIdleSweeper } from './pool/idle-sweep.js';
import { WsClientTransport } from './transport/ws-transport.js';

export type ChangeListener = (method: string, params: JsonObject | undefined) => void;

const LIST_CHANGED = ['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed'] as const;

/** How often a retiring pool looks whether its held sessions have been given back. */
const RETIRE_POLL_MS = 1000;

export class Upstream {
  readonly toolSchemas = new ToolSchemas();
  /** Declared resources and templates: what a read is named by in the audit and the access log. */
  readonly resourceCatalog = new ResourceCatalog();
  private config: UpstreamConfig;
  private pool: SessionPool<LegacySession>;
  private stopSweeper: Cancel;
  private control: Promise<LegacySession> | undefined;
  private described: UpstreamInfo | undefined;
  private readonly listeners = new Set<ChangeListener>();
  private readonly subscriptions = new Map<string, number>();
  private readonly retiring = new Set<Promise<void>>();
  /** Every session's hooks but the local answers, which depend on the roots it serves (see `open`). */
  private readonly hooks: Omit<SessionHooks, 'answerLocally'>;
  /**
   * Learned per configuration (after a reload the server may differ): what the server asks outside
   * calls, and which calls asked without provenance (leased exclusively since).
   */
  private readonly learned = new WeakMap<UpstreamConfig, Learned>();

  constructor(
    config: UpstreamConfig,
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly resources: UpstreamResources,
    private readonly telemetry: UpstreamTelemetry = NO_TELEMETRY,
  ) {
    this.config = config;
    this.hooks = {
      onChange: (method, params) => {
        if (method === 'notifications/tools/list_changed') this.toolSchemas.invalidate();
        if (method === 'notifications/resources/list_changed') this.resourceCatalog.invalidate();
        for (const l of this.listeners) l(method, params);
      },
      onClosed: () => {},
      trace: (method, record) => this.telemetry.legacyRequest(method, record),
      unattributed: (method) => this.telemetry.unattributed(method),
      notificationDropped: (method, reason) => this.telemetry.notificationDropped(method, reason),
    };
    this.pool = this.createPool(config);
    this.stopSweeper = startIdleSweeper(this.clock, config.idleSessionTtlMs, () => this.pool.sweepIdle());
  }

  /** A notification for this upstream's clients that a front could not send (counted, warned once per reason). */
  notificationDropped(method: string, reason: NotificationDrop, detail?: string): void {
    this.telemetry.notificationDropped(method, reason, detail);
  }

  /**
   * A session with `caps` serving `roots` (the operator's when undefined) from the current pool (see
   * SessionPool), carrying only calls of `principal` unless the upstream's sessions are shared.
   */
  acquire(caps: LegacyCapabilities, mode: LeaseMode, roots?: RootsBinding, prefer?: LegacySession, principal?: string): Promise<Lease<LegacySession>> {
    const started = this.clock.now();
    const scoped = sessionScoped(this.config.sessionScope, principal);
    const lease = this.pool.acquire(sessionCapabilities(caps, this.config.roots), mode, roots, prefer, scoped);
    const waited = () => this.telemetry.sessionWaited((this.clock.now() - started) / 1000);
    lease.then(waited, waited);
    return lease;
  }

  /** How an interactive call holds its session: shared, a runner, or exclusively (see ask-learning.ts). */
  leaseModeFor = (method: string, params: JsonObject): Promise<LeaseMode> => this.learnedFor(this.config).askers.leaseFor(method, params);

  asksRootsOutsideCalls(): boolean {
    return this.learnedFor(this.config).outside.asksRoots;
  }

  rootsKnown(): Promise<void> {
    return this.learnedFor(this.config).outside.rootsKnown();
  }

  operatorRoots(): readonly Root[] {
    return this.config.roots;
  }

  stats(): PoolStats {
    return this.pool.stats();
  }

  /** The waiting share (see SessionPool.mayWait): its size, and whether one more exclusive holder fits. */
  waitingShare(): { max: number; room: boolean } {
    return { max: this.pool.stats().maxWaiting, room: this.pool.mayWait('exclusive') };
  }

  /** The legacy server's identity and capabilities, from the most recent initialize. */
  async describe(): Promise<UpstreamInfo> {
    if (this.described) return this.described;
    const session = await this.controlSession();
    this.described = session.info;
    return session.info;
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Forwards a non-interactive request on a shared session with the request's capability set, of
   * `principal`'s sessions (lists and reads may show what earlier calls left in the session's state).
   * `record`: the front request it is made for (its span is the legacy request's parent).
   */
  async forward(
    method: string,
    params: JsonObject | undefined,
    caps: LegacyCapabilities,
    signal?: AbortSignal,
    record?: FrontRecord,
    principal?: string,
  ): Promise<JsonObject> {
    const lease = await this.acquire(caps, 'shared', undefined, undefined, principal);
    try {
      const result = await lease.session.request(method, params, signal ? { signal, record } : { record });
      if (method === 'tools/list') this.toolSchemas.observe(result);
      if (method === 'resources/list' || method === 'resources/templates/list') this.resourceCatalog.observe(method, result);
      return result;
    } finally {
      if (lease.session.closed) lease.discard('session closed');
      else lease.release();
    }
  }

  /**
   * A tool's input schema, listing the legacy server's tools (for front request `record`, on a
   * session of `principal`'s) if it is not known yet.
   */
  async toolInputSchema(name: string, caps: LegacyCapabilities, record?: FrontRecord, principal?: string): Promise<JsonObject | undefined> {
    return this.toolSchemas.lookup(name, capabilityKey(caps), (cursor) =>
      this.forward('tools/list', cursor === undefined ? undefined : { cursor }, caps, undefined, record, principal),
    );
  }

  /** A tool's annotations (readOnlyHint, idempotentHint, ...), listing the tools if it is not known yet. */
  async toolAnnotations(name: string, caps: LegacyCapabilities, principal?: string): Promise<JsonObject | undefined> {
    await this.toolInputSchema(name, caps, undefined, principal);
    return this.toolSchemas.annotationsOf(name);
  }

  /** A tool's 2025-11-25 `execution` (task support), listing the tools if it is not known yet. */
  async toolExecution(name: string, caps: LegacyCapabilities, record?: FrontRecord, principal?: string): Promise<JsonObject | undefined> {
    await this.toolInputSchema(name, caps, record, principal);
    return this.toolSchemas.executionOf(name);
  }

  /** What a read of `uri` is named by outside its call (protocol/resource-names.ts), listing the resources if nothing known matches. */
  resourceName(uri: string): Promise<ResourceName> {
    // On the control session: listing needs no client capabilities, and no new session is opened for it.
    return this.resourceCatalog.nameOf(uri, async (method, cursor) =>
      (await this.controlSession()).request(method, cursor === undefined ? undefined : { cursor }),
    );
  }

  /** Reference-counted legacy resources/subscribe on the control session (made for front request `record`). */
  async subscribe(uri: string, record?: FrontRecord): Promise<void> {
    const n = this.subscriptions.get(uri) ?? 0;
    this.subscriptions.set(uri, n + 1);
    if (n === 0) await (await this.controlSession()).request('resources/subscribe', { uri }, { record });
  }

  async unsubscribe(uri: string): Promise<void> {
    const n = this.subscriptions.get(uri) ?? 0;
    if (n <= 1) {
      this.subscriptions.delete(uri);
      if (n === 1)
        await (await this.controlSession())
          .request('resources/unsubscribe', { uri })
          .catch((err: Error) => this.log.debug('legacy resources/unsubscribe failed; the server may keep sending updates', { uri, error: err.message }));
    } else this.subscriptions.set(uri, n - 1);
  }

  /** Resolves when the legacy server answers a ping on the control session within `timeoutMs`. */
  async check(timeoutMs: number): Promise<void> {
    let cancel: Cancel | undefined;
    const timeout = new Promise<never>((_, reject) => {
      cancel = this.clock.after(timeoutMs, () => reject(new Error(`no answer within ${timeoutMs} ms`)));
    });
    try {
      await Promise.race([this.controlSession().then((s) => s.request('ping', undefined)), timeout]);
    } finally {
      cancel?.();
    }
  }

  /**
   * A changed configuration. The new server is reached first (a failure changes nothing); then new
   * calls get sessions of the new configuration, idle old sessions close now, and sessions held by
   * suspended interactions close once those end (at the latest after their TTL and call timeout).
   */
  async reconfigure(config: UpstreamConfig): Promise<void> {
    const control = this.openControl(config);
    const session = await control;
    const old = { pool: this.pool, control: this.control, config: this.config };
    this.config = config;
    this.pool = this.createPool(config);
    this.stopSweeper();
    this.stopSweeper = startIdleSweeper(this.clock, config.idleSessionTtlMs, () => this.pool.sweepIdle());
    this.control = control;
    this.described = session.info;
    this.toolSchemas.invalidate();
    this.resourceCatalog.invalidate();
    void old.control?.then(
      (s) => s.close('reconfigured'),
      () => {},
    );
    this.track(this.retire(old.pool, old.config.interactionTtlMs + old.config.callTimeoutMs));
    // The server behind the name may have changed: listen subscribers should list again.
    for (const method of LIST_CHANGED) for (const l of this.listeners) l(method, undefined);
  }

  async close(): Promise<void> {
    this.stopSweeper();
    const control = this.control;
    this.control = undefined;
    await Promise.all([
      this.pool.close(),
      control?.then(
        (s) => s.close('proxy shutting down'),
        () => {},
      ),
      ...this.retiring,
    ]);
  }

  /**
   * A fresh, unstarted transport to the legacy server for a legacy client's own session (the
   * transparent legacy path), with its slot among --max-sessions: `release` gives the slot back
   * once the session ends. Refused when every session allowed is in use.
   */
  openPassThrough(): { transport: Transport; release: () => void } {
    const release = this.pool.reserveOutside();
    if (release === undefined) {
      const max = this.config.maxSessions;
      throw new ProxyError('upstream_unavailable', 'sessions_busy', `every legacy session allowed by --max-sessions (${max}) is in use; try again later`);
    }
    return { transport: this.transport(this.config.target), release };
  }

  private createPool(config: UpstreamConfig): SessionPool<LegacySession> {
    // A dead session leaves the pool it belongs to (which may be a retiring one) and frees its slot.
    const hooks = { ...this.hooks, onClosed: (session: LegacySession) => pool.forget(session) };
    const pool: SessionPool<LegacySession> = new SessionPool<LegacySession>({
      maxSessions: config.maxSessions,
      maxWaiting: waitingCap(config.maxSessions, config.waitingSharePercent),
      callsPerSession: config.callsPerSession,
      spareSessions: config.spareSessions,
      waitMs: config.sessionWaitMs,
      idleTtlMs: config.idleSessionTtlMs,
      connect: (caps, roots) => this.open(config, caps, hooks, roots),
      slotWaited: (seconds) => this.telemetry.runnerSlotWaited(seconds),
      clock: this.clock,
      log: this.log,
    });
    return pool;
  }

  /** Closes a replaced pool once no session of it is in use any more, or after `maxWaitMs`. */
  private async retire(pool: SessionPool<LegacySession>, maxWaitMs: number): Promise<void> {
    const until = this.clock.now() + maxWaitMs;
    pool.sweepIdle(0);
    const inUse = () => pool.stats().held > 0 || pool.stats().sharedCalls > 0;
    while (inUse() && this.clock.now() < until) {
      await this.clock.sleep(RETIRE_POLL_MS);
      pool.sweepIdle(0);
    }
    await pool.close();
  }

  private track(work: Promise<void>): void {
    this.retiring.add(work);
    void work.finally(() => this.retiring.delete(work));
  }

  private learnedFor(config: UpstreamConfig): Learned {
    return learnedFor(this.learned, config, this.log, this.clock);
  }

  /** The control session is outside the pool and re-opened (with its subscriptions) if it dies. */
  private controlSession(): Promise<LegacySession> {
    this.control ??= this.openControl(this.config);
    return this.control;
  }

  private openControl(config: UpstreamConfig): Promise<LegacySession> {
    const hooks = {
      ...this.hooks,
      onClosed: () => {
        if (this.control === opening) this.control = undefined;
      },
    };
    // It declares roots, so a server that asks for them at initialize shows it when the proxy starts.
    const opening = this.open(config, { roots: ROOTS_CAPABILITY }, hooks).then(async (session) => {
      // A re-opened control session subscribes again: without it, listeners would hear no more updates.
      for (const uri of this.subscriptions.keys())
        await session
          .request('resources/subscribe', { uri })
          .catch((err: Error) =>
            this.log.warn('legacy resources/subscribe failed on the re-opened control session: no updates for it', { uri, error: err.message }),
          );
      return session;
    });
    opening.catch(() => {
      if (this.control === opening) this.control = undefined;
    });
    return opening;
  }

  /** Opens a session; one that declares roots answers roots/list outside calls with `roots` (the operator's when undefined). */
  private async open(
    config: UpstreamConfig,
    caps: LegacyCapabilities,
    hooks: Omit<SessionHooks, 'answerLocally'>,
    roots?: RootsBinding,
  ): Promise<LegacySession> {
    const { outside, askers } = this.learnedFor(config);
    const served = rootsServed(roots, config.roots);
    const answers = outside.forSession(served);
    const own: SessionHooks = { ...hooks, answerLocally: answers.answerLocally, asks: askers, ...(caps.roots ? { servedRoots: served } : {}) };
    const transport = this.transport(config.target);
    const session = await LegacySession.connect(transport, caps, own, this.log, config.connectTimeoutMs).catch((err: Error) => {
      // A stdio child that exited says how, and what it last wrote, instead of "Connection closed".
      // One that exited by itself before speaking may lack a variable it needs: say what it gets.
      const exit = transport instanceof StdioTransport ? transport.exitReport() : undefined;
      if (exit === undefined || !(transport instanceof StdioTransport)) throw err;
      const hint = transport.exitedBeforeSpeaking() ? `; ${minimalEnvironmentHint()}` : '';
      throw new Error(`the legacy server ${exit} (${err.message})${hint}`);
    });
    if (caps.roots) await answers.settle(() => session.request('ping', undefined));
    if (config === this.config) this.described = session.info;
    return session;
  }

  private transport(target: UpstreamTarget): Transport {
    switch (target.kind) {
      case 'stdio':
        return createStdioTransport(target, this.log, this.resources);
      case 'http':
        return createHttpTransport(target, this.resources);
      case 'sse':
        return createSseTransport(target.url, target.headers);
      case 'websocket':
        return new WsClientTransport(target.url, target.headers);
    }
  }
}

/** The principal a session is kept to: none when the upstream's sessions are shared by every caller. */
export function sessionScoped(scope: SessionScope | undefined, principal: string | undefined): string | undefined {
  return scope === 'shared' ? undefined : principal;
}
