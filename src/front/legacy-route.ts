// Serving one legacy upstream over 2026-07-28 HTTP: the official v2 handler with the bridge behind
// it, the transparent path for legacy clients, and the few checks the SDK does not make. Responses
// are JSON unless the call streams notifications (progress, logs), which upgrades them to SSE.
// Interactive calls are not forced onto SSE: an SSE response commits to 200 before the outcome is
// known, and a -32021 must be a 400.
import type { Request, Response } from 'express';
import { createMcpHandler, InMemoryServerEventBus, type McpHttpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Bridge } from '../bridge/bridge.js';
import type { UpstreamConfig } from '../config/types.js';
import { declaredCapabilities, legacyCapabilitiesFor } from '../protocol/capabilities.js';
import { errorBody } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/json.js';
import { resourceSubscriptionUris } from '../protocol/params.js';
import { checkTaskNameHeader } from '../protocol/name-header.js';
import { invalidRetryParams } from '../protocol/retry-params.js';
import type { CutoverSession } from '../relay/cutover-session.js';
import type { LegacyClientSessions } from '../relay/legacy-client-sessions.js';
import type { MigratedServer } from '../relay/migrated-server.js';
import { changedKinds, itemsToCheck, originOf, sideOf, tokenOf } from '../routing/cutover.js';
import type { CutoverConfig } from '../config/cutover.js';
import { ANONYMOUS } from '../state/principal.js';
import type { Logger } from '../telemetry/logger.js';
import { frontRequestOf } from '../telemetry/front-request.js';
import type { Upstream } from '../upstream/upstream.js';
import { createChangeRelay } from './changes.js';
import { principalOfRequest } from './auth-gate.js';
import { requestedTaskIds, withTaskNotifications } from './task-listen.js';
import type { Route, RouteStatus } from '../routing/route.js';
import { forwardIfForeign, type OwnerForwarding } from './owner-forward.js';
import { FastLane } from './fast-lane.js';
import { OpenedStates } from './opened-states.js';
import { linkWebRequest, recordOfContext, withErrorStatuses } from './official-front.js';
import { createFrontServer, type ForwardObserver } from './server-factory.js';

/** What the composition root hands a legacy route: the upstream, its bridge, the legacy-client relay. */
export interface LegacyRouteParts {
  upstream: Upstream;
  bridge: Bridge;
  /** The transparent path for clients that open with `initialize`; absent with --legacy-clients reject. */
  legacyClients: LegacyClientSessions<CutoverSession> | undefined;
  /** Requests of those clients running on the migrated server of the cutover now (relay/cutover-session.ts). */
  legacyClientsOnMigrated?: { count: number };
  /** Forwarding of held calls' retries to the instance that owns them; absent without a state key. */
  forwarding?: OwnerForwarding;
  log: Logger;
  /** Hears of forwarded requests (the shadow comparison). */
  forwards?: ForwardObserver | undefined;
  /** Serve plain tools/call requests on the fast lane (--fast-lane, default on). */
  fastLane?: boolean;
  /** The migrated server of the upstream's cutover, if it has one; it changes on reload (reconfigured). */
  migrated?: MigratedServer | undefined;
  /** Whether a requestState or task id was sealed by this proxy (Sealer.sealedHere): a retry goes back where it began. */
  sealedHere: (token: unknown) => boolean;
}

const READY_TIMEOUT_MS = 3000;

export class LegacyRoute implements Route {
  readonly era = 'legacy' as const;
  readonly name: string;
  private currentConfig: UpstreamConfig;
  private readonly upstream: Upstream;
  private readonly bridge: Bridge;
  private readonly legacy: LegacyClientSessions<CutoverSession> | undefined;
  private readonly handler: McpHttpHandler;
  private readonly serve: ReturnType<typeof toNodeHandler>;
  private readonly stopRelay: () => void;
  /** Tells listen subscribers of a change, coalesced with the legacy server's own (changes.ts). */
  private readonly changes: (method: string, params: JsonObject | undefined) => void;
  private readonly log: Logger;
  private readonly forwarding: OwnerForwarding | undefined;
  private readonly fast: FastLane | undefined;
  private readonly opened = new OpenedStates();
  private migrated: MigratedServer | undefined;
  /** The cutover the migrated server was last seen to serve whole (at start, or by the reload that applied it). */
  private checkedCutover: CutoverConfig | undefined;
  /** Why the start's check of the cutover failed, until a reload applies one that passes: /readyz says it. */
  private cutoverProblem: string | undefined;
  private readonly sealedHere: (token: unknown) => boolean;
  private readonly legacyOnMigrated: { count: number };

  constructor(config: UpstreamConfig, parts: LegacyRouteParts) {
    this.forwarding = parts.forwarding;
    this.name = config.name;
    this.currentConfig = config;
    this.upstream = parts.upstream;
    this.bridge = parts.bridge;
    this.legacy = parts.legacyClients;
    this.log = parts.log;
    this.migrated = parts.migrated;
    this.sealedHere = parts.sealedHere;
    this.legacyOnMigrated = parts.legacyClientsOnMigrated ?? { count: 0 };
    const bus = new InMemoryServerEventBus((err) => this.log.warn('listen subscriber failed', { error: err.message }));
    const frontDeps = {
      bridge: this.bridge,
      upstream: this.upstream,
      log: this.log,
      principal: ANONYMOUS,
      forwards: parts.forwards,
      recordOf: recordOfContext,
      openedStates: this.opened,
      mergeList: async (method: string, result: JsonObject, capabilities: JsonObject, signal: AbortSignal) =>
        this.migrated ? this.migrated.mergeInto(method, result, capabilities, signal) : result,
    };
    this.handler = createMcpHandler(async () => createFrontServer(await this.upstream.describe(), frontDeps), {
      legacy: 'reject',
      responseMode: 'auto',
      bus,
      onerror: (err) => this.log.debug('front request rejected', { error: err.message }),
    });
    const official = withErrorStatuses(this.handler);
    const onerror = (err: Error) => this.log.error('front adapter failed', { error: err.message });
    // An adapter per request: the web Request it makes of `req` is linked to `req`'s record on
    // its way to the handler (official-front.ts).
    this.serve = async (req, res, body) => {
      const front = await this.withTasks(official, req, body);
      const linked: typeof official = {
        fetch: (request, options) => {
          linkWebRequest(req, request);
          return front.fetch(request, options);
        },
      };
      return toNodeHandler(linked, { onerror })(req, res, body);
    };
    this.changes = createChangeRelay(this.handler.notify);
    this.stopRelay = this.upstream.onChange(this.changes);
    this.fast = parts.fastLane === false ? undefined : new FastLane(frontDeps);
  }

  get config(): UpstreamConfig {
    return this.currentConfig;
  }

  /** The migrated server of the cutover now, if any: 2025-era clients' sessions read it for each request. */
  get migratedServer(): MigratedServer | undefined {
    return this.migrated;
  }

  /** Reaches the legacy server once, and the migrated server lists every item cut over to it; throws if not. */
  async start(): Promise<void> {
    const info = await this.upstream.describe();
    this.log.debug('legacy server reached', { server: info.serverInfo.name, version: info.serverInfo.version, protocolVersion: info.protocolVersion });
    try {
      await this.checkCutover(this.migrated);
    } catch (err) {
      this.cutoverProblem = (err as Error).message;
      throw err;
    }
    this.checkedCutover = this.migrated?.cutover;
  }

  /** Throws unless the migrated server lists every item its cutover adds to what was checked (routing/cutover.ts). */
  async checkCutover(migrated: MigratedServer | undefined): Promise<void> {
    if (migrated) await migrated.check(itemsToCheck(this.checkedCutover, migrated.cutover));
  }

  /**
   * With forwarding, a retry another instance owns is relayed byte for byte; with a cutover, so
   * is a request of a cut-over item: the listener keeps the body.
   */
  get relaysRawBody(): boolean {
    return this.forwarding !== undefined || this.migrated !== undefined;
  }

  async handle(req: Request, res: Response, raw: Buffer | undefined): Promise<void> {
    // Parsed once by the listener (front/body-reader.ts).
    const body: unknown = req.body;
    if (this.legacy && (await this.legacy.serve(req, res))) return;
    const msg = body as { id?: unknown; method?: unknown; params?: Record<string, unknown> } | undefined;
    const migrated = this.migrated;
    if (migrated && sideOf(migrated.cutover, msg?.method, msg?.params, originOf(tokenOf(msg?.method, msg?.params), this.sealedHere)) === 'migrated') {
      frontRequestOf(req)?.served('relay');
      // A reload may have added the cutover after the listener chose not to keep the bytes.
      await migrated.relay(req, res, raw ?? Buffer.from(JSON.stringify(body)));
      return;
    }
    const invalid = invalidRetryParams(msg);
    if (invalid) {
      res.status(200).json(errorBody(msg?.id, invalid.code, invalid.message));
      return;
    }
    const mismatch = checkTaskNameHeader(msg?.method, msg?.params, req.header('mcp-name'));
    if (mismatch) {
      res.status(400).json(errorBody(msg?.id, mismatch.code, mismatch.message));
      return;
    }
    const routed = this.forwarding && raw ? await forwardIfForeign(this.forwarding, req, res, raw, body) : undefined;
    if (routed?.served) return;
    // The state opened to route the retry is the bridge's too while the retry is served.
    const release = routed?.opened ? this.opened.hold(msg?.params?.['requestState'] as string, routed.opened) : undefined;
    try {
      if (msg?.method === 'subscriptions/listen') await this.holdResourceSubscriptions(msg.params, req, res);
      if (msg?.method === 'tools/call') {
        await this.learnToolSchema(msg.params, req);
        if (this.fast && (await this.fast.serve(req, res, body))) return;
      }
      await this.serve(req, res, body);
    } finally {
      release?.();
    }
  }

  async status(): Promise<RouteStatus> {
    const pool = this.upstream.stats();
    const sessions = {
      open: pool.sessions,
      held: pool.held,
      shared: pool.shared,
      sharedCalls: pool.sharedCalls,
      onClient: pool.onClient,
      waitingCalls: pool.waitingCalls,
      queued: pool.waiting,
      max: pool.maxSessions,
      maxOnClient: pool.maxWaiting,
      passThrough: pool.passThrough,
    };
    const cutover = this.currentConfig.cutover;
    const base = {
      era: this.era,
      transport: this.currentConfig.target.kind,
      sessions,
      ...(cutover
        ? {
            cutover: {
              upstream: cutover.upstream,
              tools: cutover.tools,
              prompts: cutover.prompts,
              resources: cutover.resources,
              resourceTemplates: cutover.resourceTemplates,
              legacyClientRequests: this.legacyOnMigrated.count,
            },
          }
        : {}),
    };
    try {
      await this.upstream.check(READY_TIMEOUT_MS);
    } catch (err) {
      return { ...base, ready: false, error: (err as Error).message };
    }
    if (this.cutoverProblem !== undefined) return { ...base, ready: false, error: this.cutoverProblem };
    // Saturated: a call that needs a session of its own now has to queue for one.
    if (pool.saturated)
      return {
        ...base,
        ready: false,
        saturated: true,
        error: `saturated: all ${pool.maxSessions} legacy sessions are in use (${pool.held} held, ${pool.shared} shared; ${pool.onClient} with calls waiting for clients)`,
      };
    return { ...base, ready: true };
  }

  /**
   * The composition root reconfigured this route's upstream and bridge in place; the route keeps
   * the configuration it now serves, and the migrated server of its cutover. Listeners hear of
   * each list whose cut-over items changed, once: coalesced with what the reconfigured upstream
   * itself tells them. 2025-era clients' sessions hear of it too, each on its own session.
   */
  reconfigured(config: UpstreamConfig, migrated: MigratedServer | undefined): void {
    const changed = changedKinds(this.currentConfig.cutover, config.cutover);
    this.currentConfig = config;
    this.migrated = migrated;
    this.checkedCutover = migrated?.cutover;
    this.cutoverProblem = undefined;
    if (changed.length > 0)
      this.log.info('cutover changed', {
        migrated: config.cutover?.upstream ?? null,
        tools: config.cutover?.tools ?? [],
        prompts: config.cutover?.prompts ?? [],
        resources: config.cutover?.resources ?? [],
        resourceTemplates: config.cutover?.resourceTemplates ?? [],
      });
    const lists = [
      ...(changed.includes('tools') ? ['notifications/tools/list_changed'] : []),
      ...(changed.includes('prompts') ? ['notifications/prompts/list_changed'] : []),
      ...(changed.includes('resources') || changed.includes('resourceTemplates') ? ['notifications/resources/list_changed'] : []),
    ];
    for (const method of lists) this.changes(method, undefined);
    for (const session of this.legacy?.connected() ?? []) session.listsChanged(lists);
  }

  /** Stops serving. The upstream, bridge and relay belong to the composition root, which closes them. */
  async close(): Promise<void> {
    this.stopRelay();
    await this.handler.close();
  }

  /** A subscriptions/listen that asks for task ids hears of those tasks too (task-listen.ts). */
  private async withTasks(official: Pick<McpHttpHandler, 'fetch'>, req: object, body: unknown): Promise<Pick<McpHttpHandler, 'fetch'>> {
    const message = body as { id?: unknown; method?: unknown; params?: Record<string, unknown> } | undefined;
    if (message?.method !== 'subscriptions/listen' || requestedTaskIds(message.params).length === 0) return official;
    return withTaskNotifications(official, message, principalOfRequest(req) ?? ANONYMOUS, this.bridge.taskAccess());
  }

  /** Makes the called tool's schema known before dispatch, for the SDK's `Mcp-Param-*` check. */
  private async learnToolSchema(params: Record<string, unknown> | undefined, req: Request): Promise<void> {
    const name = params?.['name'];
    if (typeof name !== 'string') return;
    try {
      const principal = principalOfRequest(req) ?? ANONYMOUS;
      await this.upstream.toolInputSchema(name, legacyCapabilitiesFor(declaredCapabilities(params)), frontRequestOf(req), principal);
    } catch (err) {
      // The call itself will meet the same failure and report it properly.
      this.log.debug('could not list legacy tools for header validation', { error: (err as Error).message });
    }
  }

  /**
   * The SDK's listen router does not expose the requested resource URIs, so they are read here and
   * a legacy resources/subscribe is held for as long as the listen stream is open.
   */
  private async holdResourceSubscriptions(params: Record<string, unknown> | undefined, req: Request, res: Response): Promise<void> {
    const uris = resourceSubscriptionUris(params);
    if (uris.length === 0) return;
    const upstream = this.upstream;
    const info = await upstream.describe().catch(() => undefined);
    const resources = info?.capabilities['resources'] as { subscribe?: boolean } | undefined;
    if (!resources?.subscribe) return;
    const held: string[] = [];
    for (const uri of uris) {
      try {
        await upstream.subscribe(uri, frontRequestOf(req));
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
