import type { Root } from '../protocol/json.js';
import type { LogFormat, LogLevel } from '../telemetry/logger.js';
import type { TracingPlan } from '../telemetry/otel-env.js';
import type { ChildUser } from './child-user.js';
import type { LimitValues } from './limits.js';
import type { CutoverConfig } from './cutover.js';
import type { ShadowConfig } from './shadow.js';

/** How the proxy reaches one upstream server. Headers are resolved values: never log them. */
export type UpstreamTarget =
  | { kind: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string; user?: ChildUser }
  | { kind: 'http'; url: URL; headers: Record<string, string>; oauth?: UpstreamOAuth }
  | { kind: 'sse'; url: URL; headers: Record<string, string> }
  | { kind: 'websocket'; url: URL; headers: Record<string, string> };

/**
 * The proxy's own OAuth client credentials for an HTTP upstream (never the client's token). The
 * secret is the resolved value: never log it.
 */
export interface UpstreamOAuth {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
  /** RFC 8707 resource indicator to ask the token for (e.g. the upstream's URL). */
  resource?: string;
}

/** legacy: bridge it; modern: relay 2026-07-28 as is; auto: probe and decide. */
export type Era = 'legacy' | 'modern' | 'auto';

/**
 * Who may share a legacy session: `principal`, only calls of one principal (a server that keeps
 * state per session shows each its own); `shared`, every caller (for servers known to be stateless).
 */
export type SessionScope = 'principal' | 'shared';

/** How an interactive call waits for the client: see bridge/suspend-mode.ts. */
export type SuspendMode = 'auto' | 'hold' | 'replay';

export interface SuspendConfig {
  default: SuspendMode;
  /** Tools always replayed / always held, whatever their annotations say. */
  replay: string[];
  hold: string[];
}

/** Tools the proxy runs as tasks of its own (the tasks extension), for a legacy server without tasks: see bridge/tasks/hosted-task.ts. */
export interface HostedTasksConfig {
  /** Run as tasks for requests that declare the tasks extension, as plain calls for others. */
  tools: string[];
  /** Run only as tasks: a request without the extension gets -32021. */
  required: string[];
  /** How long a task lives from its creation: its call is cancelled then, its result dropped. */
  ttlMs: number;
  /** How long clients are told to wait between two tasks/get. */
  pollIntervalMs: number;
  /** How long a call runs as an ordinary call (in one round) before it becomes a task; 0: a task at once. */
  afterMs: number;
}

/** What happens to clients that open with a legacy `initialize`. */
export type LegacyClients = 'pass' | 'reject';

export type { Root };

/**
 * Per-upstream limits in milliseconds or counts (`interactionTtlMs`, `maxSessions`, ...): one field per
 * row of the table in limits.ts, which documents each.
 */
export type UpstreamLimits = LimitValues;

export interface UpstreamConfig extends UpstreamLimits {
  /** Served at /servers/NAME/mcp. */
  name: string;
  target: UpstreamTarget;
  era: Era;
  /** Roots the proxy answers with when the legacy server asks outside an interactive call. */
  roots: Root[];
  suspend: SuspendConfig;
  /** Absent: `principal` (see SessionScope). */
  sessionScope?: SessionScope;
  /** Tools run as the proxy's tasks; absent: none. */
  tasks?: HostedTasksConfig;
  /** How clients must authenticate to this upstream's route; absent: they need not. */
  clientAuth?: ClientAuthConfig;
  /** Requests also sent to a candidate upstream and compared (legacy upstreams only). */
  shadow?: ShadowConfig;
  /** Items its migrated 2026-07-28 server serves instead (legacy upstreams only). */
  cutover?: CutoverConfig;
}

/**
 * Bearer tokens a route accepts (OAuth 2.1 resource server). JWTs are checked against the issuer's
 * keys; opaque tokens are introspected when `introspectionUrl` is set.
 */
export interface ClientAuthConfig {
  /** The authorization server's issuer identifier; its metadata is discovered from it. */
  issuer: string;
  /** The `aud` a token must carry; absent: the route's resource URL. */
  audience?: string;
  /** Scopes every token must have. */
  scopes: string[];
  /** RFC 7662 endpoint for tokens that are not JWTs. */
  introspectionUrl?: string;
}

/** How the proxy authenticates itself to an introspection endpoint. Secrets: never log them. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** What the HTTP listener needs beyond its address: the front door's settings. */
export interface HttpFrontConfig {
  /** The canonical resource URL of /mcp (`SCHEME://HOST[:PORT]/mcp`); absent: the listening URL. */
  resourceUrl?: string;
  /** Serve HTTPS with this certificate and key (PEM files, re-read on SIGHUP). */
  tls?: { certFile: string; keyFile: string };
  /** Browser origins allowed to call the proxy (CORS), exactly as browsers send them. */
  corsOrigins: string[];
  /** Host header hostnames accepted besides the loopback names. */
  allowedHosts: string[];
  /** Origin header values accepted besides loopback origins (and the CORS origins). */
  allowedOrigins: string[];
  /** Credentials for the introspection endpoints (env MRTR_AUTH_CLIENT_ID / MRTR_AUTH_CLIENT_SECRET). */
  introspectionClient?: ClientCredentials;
}

/** The audit of interactive calls (--audit). */
export interface AuditConfig {
  file: string;
  /** Rotated to FILE.1 past this size. */
  maxBytes: number;
  /** Keep what was asked and answered (--audit-content); off by default. */
  content: boolean;
  /** Keep what the server authored when it asked (--audit-questions); off by default. */
  questions: boolean;
}

/**
 * Where the state keys came from: the variable that held them (which /proc/PID/environ shows), the
 * file, the command line, or nowhere (generated). What a child of the proxy's own user could read
 * them from (app/child-exposure.ts).
 */
export type StateKeySource = { env: string } | { file: string } | 'argv' | 'generated';

/** The resolved configuration: validated once at the edge and passed down through constructors. */
export interface ProxyConfig {
  /** Serve 2026-07-28 on stdin/stdout instead of HTTP. */
  stdio: boolean;
  legacyClients: LegacyClients;
  host: string;
  port: number;
  /**
   * 32-byte AEAD keys for requestState: `bytes` seals, every one of `keys` opens (`bytes` is
   * `keys[0]`); `generated` (and `keys` empty) when the operator configured none.
   */
  stateKey: { bytes: Uint8Array; keys: Uint8Array[]; generated: boolean; from: StateKeySource };
  logLevel: LogLevel;
  /** json or pretty as the operator chose (flag, MRTR_LOG_FORMAT, file); absent: pretty on a terminal, else json. */
  logFormat?: LogFormat;
  /** This instance's base URL as the other instances reach it (forwarding of held calls). */
  advertiseUrl?: URL;
  /** The shared single-use ledger of replay states (redis://); absent: in this process's memory. */
  stateStore?: URL;
  /** GET /metrics on a listener of its own on 127.0.0.1 (0: any free port); absent: on the MCP listener. */
  metricsPort?: number;
  /** One info line per front request. */
  accessLog: boolean;
  /** Plain tools/call requests to legacy upstreams over HTTP take the fast lane (front/fast-lane.ts). */
  fastLane: boolean;
  /** From the OTEL_* environment. */
  tracing: TracingPlan;
  upstreams: UpstreamConfig[];
  /** The upstream served at /mcp (and the one a stdio front serves). */
  defaultUpstream: string | undefined;
  audit?: AuditConfig;
  /** Serve the live view at /dashboard (loopback hosts only). */
  dashboard: boolean;
  http: HttpFrontConfig;
  /** The file this came from, for SIGHUP reloads. */
  configFile?: string;
}
