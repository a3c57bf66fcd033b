// A 2026-07-28 upstream: nothing to translate, so requests are relayed as received (http-relay.ts).
// A 2025-era client (initialize, Mcp-Session-Id) is served by the reverse bridge instead, unless
// the assembly turned legacy clients off.
import type { Request, Response } from 'express';
import type { UpstreamConfig } from '../config/types.js';
import type { Logger } from '../telemetry/logger.js';
import { headerSourceFor, type HeaderSource } from '../upstream/client-credentials.js';
import type { UpstreamResources } from '../upstream/resources.js';
import { discover } from '../upstream/probe.js';
import type { Route, RouteStatus } from '../routing/route.js';
import { LegacyClientSessions } from './legacy-client-sessions.js';
import { ReverseBridgeSession } from './reverse-bridge-session.js';
import { relayHttp } from './http-relay.js';
import type { Clock } from '../clock.js';

const READY_TIMEOUT_MS = 3000;
/** Rounds of questions one request of a 2025-era client may take before it ends with an error. */
export const REVERSE_BRIDGE_MAX_ROUNDS = 10;

export class ModernHttpRoute implements Route {
  readonly era = 'modern' as const;
  readonly relaysRawBody = true;
  readonly name: string;
  private readonly url: URL;
  private readonly headers: HeaderSource;
  /** 2025-era clients' sessions through the reverse bridge; undefined with `legacyClients: reject`. */
  private readonly legacyClients: LegacyClientSessions | undefined;
  /** Requests of those sessions running upstream now. */
  private readonly bridged = { count: 0 };
  /** Their subscriptions/listen streams open upstream now. */
  private readonly listening = { count: 0 };

  /** `legacyClients`: when given, 2025-era clients are served through the reverse bridge. */
  constructor(
    readonly config: UpstreamConfig,
    private readonly log: Logger,
    resources: UpstreamResources,
    legacyClients?: { clock: Clock },
  ) {
    if (config.target.kind !== 'http') throw new Error(`upstream ${config.name}: modern upstreams are relayed over http only`);
    this.name = config.name;
    this.url = config.target.url;
    this.headers = headerSourceFor(config.target, resources.tokens);
    const options = {
      url: this.url,
      credentials: this.headers,
      name: this.name,
      maxRounds: REVERSE_BRIDGE_MAX_ROUNDS,
      flows: this.bridged,
      listens: this.listening,
      log,
    };
    this.legacyClients = legacyClients
      ? new LegacyClientSessions((toClient) => new ReverseBridgeSession(toClient, options), config.idleSessionTtlMs, log, legacyClients.clock)
      : undefined;
  }

  async start(): Promise<void> {
    const s = await this.status();
    if (!s.ready) throw new Error(s.error);
    this.log.debug('modern server reached: relaying as is', { upstream: this.name });
  }

  async handle(req: Request, res: Response, raw: Buffer | undefined): Promise<void> {
    if (this.legacyClients && (await this.legacyClients.serve(req, res))) return;
    await relayHttp({ name: this.name, url: this.url, headers: this.headers }, req, res, raw, this.log);
  }

  async status(): Promise<RouteStatus> {
    const base = {
      era: this.era,
      transport: this.config.target.kind,
      ...(this.legacyClients ? { legacyClients: { sessions: this.legacyClients.count, requests: this.bridged.count, listening: this.listening.count } } : {}),
    };
    try {
      const discovered = await discover(this.url, await this.headers(), READY_TIMEOUT_MS);
      return discovered === 'modern' ? { ...base, ready: true } : { ...base, ready: false, error: 'the server no longer answers server/discover' };
    } catch (err) {
      return { ...base, ready: false, error: (err as Error).message };
    }
  }

  async close(): Promise<void> {
    await this.legacyClients?.closeAll();
  }
}
