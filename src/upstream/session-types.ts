// The ports of a legacy session: who receives its server's requests and logs (SessionHolder), what
// its owner hooks in (SessionHooks), and what it learned at initialize (UpstreamInfo).
import type { JsonObject, Root, ServerRequest } from '../protocol/json.js';
import type { FrontRecord, LegacyRequestTrace, NotificationDrop } from '../telemetry/ports.js';
import type { Learning } from './attribution.js';
import type { LegacySession } from './session.js';

/** The interactive call a legacy request belongs to receives it, and its logs. */
export interface SessionHolder {
  /** Waiting for its client's answers: its legacy handler cannot ask anything until they come. */
  readonly parked?: boolean;
  /** Settles with the result to send back; rejects with an McpError to send an error. */
  onServerRequest(request: ServerRequest, withdrawn: AbortSignal): Promise<JsonObject>;
  onLog(params: JsonObject): void;
}

export interface SessionHooks {
  /** Answers a server-initiated request nobody holds the session for. */
  answerLocally(request: ServerRequest, session: LegacySession): Promise<JsonObject>;
  /** The roots its roots/list outside calls is answered with (a session that declares roots). */
  servedRoots?: readonly Root[];
  /** Change notifications (list_changed, resources/updated) for listen subscribers. */
  onChange(method: string, params: JsonObject | undefined): void;
  onClosed(session: LegacySession): void;
  /** Told how calls (askKey) asked (see attribution.ts), and which completed without asking. */
  asks?: { learn(learning: Learning): void; completedQuietly(key: string): void };
  /** A request without provenance was refused: several running calls could have sent it. */
  unattributed?(method: string): void;
  /** A log line that no call can carry to its client (see NotificationDrop). */
  notificationDropped?(method: string, reason: NotificationDrop): void;
  /** Metrics and the span of one request to the legacy server, made for front request `record` if any. */
  trace?(method: string, record: FrontRecord): LegacyRequestTrace;
}

export interface UpstreamInfo {
  serverInfo: { name: string; version: string } & JsonObject;
  capabilities: JsonObject;
  instructions?: string;
  protocolVersion: string;
}
