// Serving one legacy upstream over 2026-07-28 HTTP: the official v2 handler with the bridge behind
// it, the transparent path for legacy clients, and the few checks the SDK does not make. Responses
// are JSON unless the call streams notifications (progress, logs), which upgrades them to SSE.
// Interactive calls are not forced onto SSE: an SSE response commits to 200 before the outcome is
// known, and a -32021 must be a 400.
import type { Request, Response } from 'express';
import { createMcpHandler, InMemoryServerEventBus, isJsonContentType, type McpHttpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Bridge } from '../bridge/bridge.js';
import { legacyCapabilitiesFor, type FrontCapabilities } from '../bridge/capabilities.js';
import type { LegacyClients, UpstreamConfig } from '../config/types.js';
import type { Sealer } from '../state/seal.js';
import type { Logger } from '../telemetry/logger.js';
import { Upstream, type ChangeListener } from '../upstream/upstream.js';
import { createChangeRelay } from './changes.js';
import { LegacyHttpSessions } from './legacy-http.js';
import { resourceSubscriptionUris } from './params.js';
import { invalidRetryParams } from './retry-params.js';
import type { Route, RouteStatus } from './route.js';
import { createFrontServer } from './server-factory.js';
import { withErrorStatuses } from './status.js';

export interface RouteDeps {
  sealer: Sealer;
  /** The process instance id; the route adds its name, so a state only opens where it was issued. */
  instance: string;
  legacyClients: LegacyClients;
  log: Logger;
}

const READY_TIMEOUT_MS = 3000;

export class LegacyRoute implements Route {
  readonly era = 'legacy' as const;
  readonly name: string;
  upstream: Upstream;
  readonly bridge: Bridge;
  private config: UpstreamConfig;
  private readonly handler: McpHttpHandler;
  private readonly serve: ReturnType<typeof toNodeHandler>;
  private readonly legacy: LegacyHttpSessions | undefined;
  private stopRelay: () => void;
  private readonly relay: ReturnType<typeof createChangeRelay>;
  /** Other fronts (stdio) that want this route's change notifications across reloads. */
  private readonly changeListeners = new Set<ChangeListener>();
  private readonly log: Logger;

  constructor(config: UpstreamConfig, deps: RouteDeps) {
    this.name = config.name;
    this.config = config;
    this.log = deps.log.child({ upstream: config.name });
    this.upstream = new Upstream(config, this.log);
    this.bridge = new Bridge({
      pool: this.upstream.pool,
      sealer: deps.sealer,
      instance: `${deps.instance}/${config.name}`,
      interactionTtlMs: config.interactionTtlMs,
      gatherWindowMs: config.gatherWindowMs,
      callTimeoutMs: config.callTimeoutMs,
      log: this.log,
    });
    const bus = new InMemoryServerEventBus((err) => this.log.warn('listen subscriber failed', { error: err.message }));
    // The upstream behind a route changes on reconfigure; handlers always see the current one.
    const route = this;
    const frontDeps = {
      bridge: this.bridge,
      log: this.log,
      get upstream(): Upstream {
        return route.upstream;
      },
    };
    this.handler = createMcpHandler(async () => createFrontServer(await this.upstream.describe(), frontDeps), {
      legacy: 'reject',
      responseMode: 'auto',
      bus,
      onerror: (err) => this.log.debug('front request rejected', { error: err.message }),
    });
    this.serve = toNodeHandler(withErrorStatuses(this.handler), { onerror: (err) => this.log.error('front adapter failed', { error: err.message }) });
    this.relay = createChangeRelay(this.handler.notify);
    this.stopRelay = this.upstream.onChange(this.fanOut);
    this.legacy = deps.legacyClients === 'pass' ? new LegacyHttpSessions(() => this.upstream, config.maxSessions, config.idleSessionTtlMs, this.log) : undefined;
  }

  /** Reaches the legacy server once; throws if it cannot. */
  async start(): Promise<void> {
    const info = await this.upstream.describe();
    this.log.info('legacy server reached', { server: info.serverInfo.name, version: info.serverInfo.version, protocolVersion: info.protocolVersion });
  }

  async handle(req: Request, res: Response, raw: Buffer | undefined): Promise<void> {
    let body: unknown;
    if (raw !== undefined && raw.length > 0) {
      if (!isJsonContentType(req.header('content-type') ?? '')) {
        res.status(415).json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Content-Type must be application/json' } });
        return;
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch (err) {
        res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${(err as Error).message}` } });
        return;
      }
    }
    req.body = body;
    if (this.legacy && (await this.legacy.serve(req, res))) return;
    const msg = body as { id?: unknown; method?: unknown; params?: Record<string, unknown> } | undefined;
    const invalid = invalidRetryParams(msg);
    if (invalid) {
      res.status(200).json({ jsonrpc: '2.0', id: msg?.id ?? null, error: invalid });
      return;
    }
    if (msg?.method === 'subscriptions/listen') await this.holdResourceSubscriptions(msg.params, res);
    if (msg?.method === 'tools/call') await this.learnToolSchema(msg.params);
    await this.serve(req, res, body);
  }

  async status(): Promise<RouteStatus> {
    const base = { era: this.era, transport: this.config.target.kind };
    try {
      await this.upstream.check(READY_TIMEOUT_MS);
      return { ...base, ready: true };
    } catch (err) {
      return { ...base, ready: false, error: (err as Error).message };
    }
  }

  /**
   * A changed configuration for the same upstream: new calls use a new set of legacy sessions,
   * while interactions suspended on the old ones keep them until they end.
   */
  async reconfigure(config: UpstreamConfig): Promise<void> {
    const next = new Upstream(config, this.log);
    await next.describe();
    const old = this.upstream;
    this.stopRelay();
    this.upstream = next;
    this.config = config;
    this.stopRelay = next.onChange(this.fanOut);
    this.bridge.reconfigure(next.pool, config);
    this.legacy?.setLimits(config.maxSessions, config.idleSessionTtlMs);
    this.relay('notifications/tools/list_changed', undefined);
    this.relay('notifications/prompts/list_changed', undefined);
    this.relay('notifications/resources/list_changed', undefined);
    void old.retire();
  }

  /** Change notifications from the current upstream, whichever that is after reloads. */
  onChange(listener: ChangeListener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private readonly fanOut: ChangeListener = (method, params) => {
    this.relay(method, params);
    for (const l of this.changeListeners) l(method, params);
  };

  async close(): Promise<void> {
    this.stopRelay();
    await this.bridge.close();
    await this.legacy?.closeAll();
    await this.handler.close();
    await this.upstream.close();
  }

  /** Makes the called tool's schema known before dispatch, for the SDK's `Mcp-Param-*` check. */
  private async learnToolSchema(params: Record<string, unknown> | undefined): Promise<void> {
    const name = params?.['name'];
    if (typeof name !== 'string') return;
    const meta = params?.['_meta'] as Record<string, unknown> | undefined;
    const caps = meta?.['io.modelcontextprotocol/clientCapabilities'];
    try {
      await this.upstream.toolInputSchema(name, legacyCapabilitiesFor(typeof caps === 'object' && caps !== null ? (caps as FrontCapabilities) : {}));
    } catch (err) {
      // The call itself will meet the same failure and report it properly.
      this.log.debug('could not list legacy tools for header validation', { error: (err as Error).message });
    }
  }

  /**
   * The SDK's listen router does not expose the requested resource URIs, so they are read here and
   * a legacy resources/subscribe is held for as long as the listen stream is open.
   */
  private async holdResourceSubscriptions(params: Record<string, unknown> | undefined, res: Response): Promise<void> {
    const uris = resourceSubscriptionUris(params);
    if (uris.length === 0) return;
    const upstream = this.upstream;
    const info = await upstream.describe().catch(() => undefined);
    const resources = info?.capabilities['resources'] as { subscribe?: boolean } | undefined;
    if (!resources?.subscribe) return;
    const held: string[] = [];
    for (const uri of uris) {
      try {
        await upstream.subscribe(uri);
        held.push(uri);
      } catch (err) {
        this.log.warn('legacy resources/subscribe failed', { uri, error: (err as Error).message });
      }
    }
    res.once('close', () => {
      for (const uri of held) void upstream.unsubscribe(uri);
    });
  }
}
