// What a legacy client's session on the HTTP endpoint is connected to, behind the official
// sessionful transport: a legacy session relayed as it is (LegacyPump; CutoverSession around it
// takes the cut-over items to the migrated server), or a 2026-07-28 server through the reverse
// bridge (ReverseBridgeSession). LegacyClientSessions owns the sessions.
import type { JsonObject, RequestId } from '../protocol/json.js';

export type SessionMessage = JsonObject;

/** Delivers a message to the legacy client; `related` names the client request it belongs to. */
export type ToClient = (message: SessionMessage, related?: RequestId) => Promise<void>;

export interface ClientSessionPump {
  /** Throws when what is behind cannot be reached; the session is then not opened. */
  start(): Promise<void>;
  fromClient(message: SessionMessage): Promise<void>;
  close(reason: string): Promise<void>;
  /** Set by the owner: what is behind ended the session. */
  onclose?: () => void;
}
