// One upstream as the HTTP listener sees it: something that serves requests for its path, reports
// whether it can, and closes. LegacyRoute bridges a legacy server; the relays (relay/) pass a
// 2026-07-28 server's traffic untouched.
import type { Request, Response } from 'express';
import type { CutoverItems } from '../config/cutover.js';
import type { UpstreamConfig } from '../config/types.js';

export interface RouteStatus {
  ready: boolean;
  era: 'legacy' | 'modern';
  transport: UpstreamConfig['target']['kind'];
  error?: string;
  /**
   * A 2026-07-28 HTTP upstream's 2025-era clients through the reverse bridge: their sessions, their
   * requests running upstream and their subscriptions/listen streams open on it.
   */
  legacyClients?: { sessions: number; requests: number; listening: number };
  /** A legacy upstream's pool: sessions open, held exclusively, held by calls waiting for clients, requests queued. */
  sessions?: {
    open: number;
    held: number;
    /** Sessions carrying shared calls, and those calls. */
    shared: number;
    sharedCalls: number;
    /** Sessions with a call waiting for its client, and the calls waiting. */
    onClient: number;
    waitingCalls: number;
    queued: number;
    max: number;
    maxOnClient: number;
  };
  /** A legacy upstream's items served by its migrated server instead, and which upstream that is. */
  cutover?: CutoverItems & { upstream: string };
  /** Every legacy session is in use (held or shared): a call that needs one of its own would queue. */
  saturated?: boolean;
}

export interface Route {
  readonly name: string;
  readonly era: 'legacy' | 'modern';
  /** The configuration the route serves now (it changes when a reload reconfigures it in place). */
  readonly config: UpstreamConfig;
  /** Reaches the upstream once; throws if it cannot. */
  start(): Promise<void>;
  /** Whether the route relays request bodies byte for byte and so needs them as received. */
  readonly relaysRawBody?: boolean;
  /**
   * Serves one request. The listener has read and parsed the body once: `req.body` is the JSON
   * value (undefined when there is none); `raw` is the bytes, given only to a route that relays them.
   */
  handle(req: Request, res: Response, raw: Buffer | undefined): Promise<void>;
  status(): Promise<RouteStatus>;
  close(): Promise<void>;
}

/** Maps path names to routes; replaced wholesale or per name on reload. */
export class RouteTable {
  private routes = new Map<string, Route>();
  defaultName: string | undefined;

  get(name: string): Route | undefined {
    return this.routes.get(name);
  }

  get default(): Route | undefined {
    return this.defaultName === undefined ? undefined : this.routes.get(this.defaultName);
  }

  set(route: Route): Route | undefined {
    const previous = this.routes.get(route.name);
    this.routes.set(route.name, route);
    return previous;
  }

  delete(name: string): Route | undefined {
    const previous = this.routes.get(name);
    this.routes.delete(name);
    return previous;
  }

  all(): Route[] {
    return [...this.routes.values()];
  }
}
