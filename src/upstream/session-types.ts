// The ports of a legacy session: who receives its server's requests and logs (SessionHolder), what
// its owner hooks in (SessionHooks), and what it learned at initialize (UpstreamInfo).
import type { AbortLike } from '../runtime/light-abort.js';
import type { JsonObject, ServerRequest } from '../protocol/json.js';
import type { FrontRecord, LegacyRequestTrace } from '../telemetry/ports.js';
import type { LegacySession } from './session.js';

/** The interactive call a legacy request belongs to receives it, and its logs. */
export interface SessionHolder {
  /** Settles with the result to send back; rejects with an McpError to send an error. */
  onServerRequest(request: ServerRequest, withdrawn: AbortLike): Promise<JsonObject>;
  onLog(params: JsonObject): void;
}

export interface SessionHooks {
  /** Answers a server-initiated request nobody holds the session for. */
  answerLocally(request: ServerRequest, session: LegacySession): Promise<JsonObject>;
  /** Change notifications (list_changed, resources/updated) for listen subscribers. */
  onChange(method: string, params: JsonObject | undefined): void;
  onClosed(session: LegacySession): void;
  /** Told which calls (askKey) asked without provenance, and which completed without asking. */
  asks?: { learn(keys: readonly string[]): void; completedQuietly(key: string): void };
  /** Metrics and the span of one request to the legacy server, made for front request `record` if any. */
  trace?(method: string, record: FrontRecord): LegacyRequestTrace;
}

export interface UpstreamInfo {
  serverInfo: { name: string; version: string } & JsonObject;
  capabilities: JsonObject;
  instructions?: string;
  protocolVersion: string;
}
