// The upstream cluster: how to open a legacy session to the configured server, the pool of them,
// a control session that describes the server and carries resource subscriptions, and the
// non-interactive forwarding path (lists, completion, vendor methods).
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { capabilityKey, type LegacyCapabilities } from '../bridge/capabilities.js';
import { answerLocally } from '../bridge/local-answers.js';
import type { UpstreamConfig, UpstreamTarget } from '../config/types.js';
import type { Logger } from '../telemetry/logger.js';
import { createHttpTransport } from './http-transport.js';
import { SessionPool } from './pool.js';
import { LegacySession, type JsonObject, type SessionHooks, type UpstreamInfo } from './session.js';
import { createSseTransport } from './sse-transport.js';
import { createStdioTransport } from './stdio-transport.js';
import { WsClientTransport } from './ws-transport.js';
import { ToolSchemas } from './tool-schemas.js';

export type ChangeListener = (method: string, params: JsonObject | undefined) => void;

export class Upstream {
  readonly pool: SessionPool;
  readonly toolSchemas = new ToolSchemas();
  private control: Promise<LegacySession> | undefined;
  private described: UpstreamInfo | undefined;
  private readonly listeners = new Set<ChangeListener>();
  private readonly subscriptions = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly hooks: SessionHooks;

  constructor(
    readonly config: UpstreamConfig,
    private readonly log: Logger,
  ) {
    this.hooks = {
      answerLocally: async (req, session) => {
        const answer = answerLocally(req.method, this.config.roots);
        this.log.info('answered a legacy request locally (no interactive call holds the session)', { session: session.id, method: req.method });
        if ('error' in answer) throw new McpError(answer.error.code, answer.error.message);
        return answer.result;
      },
      onChange: (method, params) => {
        if (method === 'notifications/tools/list_changed') this.toolSchemas.invalidate();
        for (const l of this.listeners) l(method, params);
      },
      onClosed: (session) => this.pool.forget(session),
    };
    this.pool = new SessionPool({
      maxSessions: config.maxSessions,
      spareSessions: config.spareSessions,
      waitMs: config.sessionWaitMs,
      idleTtlMs: config.idleSessionTtlMs,
      connect: (caps) => this.open(caps, this.hooks),
      log,
    });
    this.sweeper = setInterval(() => this.pool.sweepIdle(), Math.min(config.idleSessionTtlMs, 30_000));
    this.sweeper.unref();
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

  /** Forwards a non-interactive request on a shared session with the request's capability set. */
  async forward(method: string, params: JsonObject | undefined, caps: LegacyCapabilities, signal?: AbortSignal): Promise<JsonObject> {
    const lease = await this.pool.acquire(caps, 'shared');
    try {
      const result = await lease.session.request(method, params, signal ? { signal } : {});
      if (method === 'tools/list') this.toolSchemas.observe(result);
      return result;
    } finally {
      if (lease.session.closed) lease.discard('session closed');
      else lease.release();
    }
  }

  /** A tool's input schema, listing the legacy server's tools if it is not known yet. */
  async toolInputSchema(name: string, caps: LegacyCapabilities): Promise<JsonObject | undefined> {
    return this.toolSchemas.lookup(name, capabilityKey(caps), (cursor) => this.forward('tools/list', cursor === undefined ? undefined : { cursor }, caps));
  }

  /** Reference-counted legacy resources/subscribe on the control session. */
  async subscribe(uri: string): Promise<void> {
    const n = this.subscriptions.get(uri) ?? 0;
    this.subscriptions.set(uri, n + 1);
    if (n === 0) await (await this.controlSession()).request('resources/subscribe', { uri });
  }

  async unsubscribe(uri: string): Promise<void> {
    const n = this.subscriptions.get(uri) ?? 0;
    if (n <= 1) {
      this.subscriptions.delete(uri);
      if (n === 1) await (await this.controlSession()).request('resources/unsubscribe', { uri }).catch(() => {});
    } else this.subscriptions.set(uri, n - 1);
  }

  /** Resolves when the legacy server answers a ping on the control session within `timeoutMs`. */
  async check(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.controlSession().then((s) => s.request('ping', undefined)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Stops taking work after a reconfiguration: idle sessions close now, sessions held by suspended
   * interactions when those end (at the latest after their TTL), then everything closes.
   */
  async retire(maxWaitMs = this.config.interactionTtlMs + this.config.callTimeoutMs): Promise<void> {
    const until = Date.now() + maxWaitMs;
    this.pool.sweepIdle(0);
    while (this.pool.stats().held > 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 1000).unref());
      this.pool.sweepIdle(0);
    }
    await this.close();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const control = this.control;
    this.control = undefined;
    await Promise.all([this.pool.close(), control?.then((s) => s.close('proxy shutting down'), () => {})]);
  }

  /** The control session is outside the pool and re-opened (with its subscriptions) if it dies. */
  private controlSession(): Promise<LegacySession> {
    if (!this.control) {
      const hooks: SessionHooks = {
        ...this.hooks,
        onClosed: () => {
          this.control = undefined;
        },
      };
      const opening = this.open({}, hooks).then(async (session) => {
        this.described = session.info;
        for (const uri of this.subscriptions.keys()) await session.request('resources/subscribe', { uri }).catch(() => {});
        return session;
      });
      opening.catch(() => {
        if (this.control === opening) this.control = undefined;
      });
      this.control = opening;
    }
    return this.control;
  }

  private async open(caps: LegacyCapabilities, hooks: SessionHooks): Promise<LegacySession> {
    const session = await LegacySession.connect(this.transport(this.config.target), caps, hooks, this.log, this.config.connectTimeoutMs);
    this.described = session.info;
    return session;
  }

  /** A fresh, unstarted transport to the legacy server (for the transparent legacy path). */
  openTransport(): Transport {
    return this.transport(this.config.target);
  }

  private transport(target: UpstreamTarget): Transport {
    switch (target.kind) {
      case 'stdio':
        return createStdioTransport(target, this.log);
      case 'http':
        return createHttpTransport(target.url, target.headers);
      case 'sse':
        return createSseTransport(target.url, target.headers);
      case 'websocket':
        return new WsClientTransport(target.url, target.headers);
    }
  }
}
