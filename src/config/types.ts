import type { Root } from '../protocol/json.js';
import type { LogLevel } from '../telemetry/logger.js';
import type { LimitValues } from './limits.js';

/** How the proxy reaches one upstream server. Headers are resolved values: never log them. */
export type UpstreamTarget =
  | { kind: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: URL; headers: Record<string, string> }
  | { kind: 'sse'; url: URL; headers: Record<string, string> }
  | { kind: 'websocket'; url: URL; headers: Record<string, string> };

/** legacy: bridge it; modern: relay 2026-07-28 as is; auto: probe and decide. */
export type Era = 'legacy' | 'modern' | 'auto';

/** How an interactive call waits for the client: see bridge/suspend-mode.ts. */
export type SuspendMode = 'auto' | 'hold' | 'replay';

export interface SuspendConfig {
  default: SuspendMode;
  /** Tools always replayed / always held, whatever their annotations say. */
  replay: string[];
  hold: string[];
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
}

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
  stateKey: { bytes: Uint8Array; keys: Uint8Array[]; generated: boolean };
  logLevel: LogLevel;
  /** This instance's base URL as the other instances reach it (forwarding of held calls). */
  advertiseUrl?: URL;
  /** The shared single-use ledger of replay states (redis://); absent: in this process's memory. */
  stateStore?: URL;
  upstreams: UpstreamConfig[];
  /** The upstream served at /mcp (and the one a stdio front serves). */
  defaultUpstream: string | undefined;
  /** The file this came from, for SIGHUP reloads. */
  configFile?: string;
}
