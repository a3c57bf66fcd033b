import type { LogLevel } from '../telemetry/logger.js';

export type UpstreamTarget =
  | { kind: 'stdio'; command: string; args: string[] }
  | { kind: 'http'; url: URL };

/** What happens to clients that open with a legacy `initialize`. */
export type LegacyClients = 'pass' | 'reject';

export interface Root {
  uri: string;
  name?: string;
}

/** The resolved configuration: validated once at the edge and passed down through constructors. */
export interface ProxyConfig {
  /** Serve 2026-07-28 on stdin/stdout instead of HTTP. */
  stdio: boolean;
  legacyClients: LegacyClients;
  host: string;
  port: number;
  upstream: UpstreamTarget;
  /** 32-byte AEAD key for requestState; `generated` when the operator configured none. */
  stateKey: { bytes: Uint8Array; generated: boolean };
  interactionTtlMs: number;
  maxSessions: number;
  /** Idle legacy sessions kept ready per capability set in use. */
  spareSessions: number;
  sessionWaitMs: number;
  callTimeoutMs: number;
  gatherWindowMs: number;
  idleSessionTtlMs: number;
  connectTimeoutMs: number;
  /** Roots the proxy answers with when the legacy server asks outside an interactive call. */
  roots: Root[];
  logLevel: LogLevel;
}
