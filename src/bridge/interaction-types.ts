// The shapes an interaction deals in: where a round's notifications go, a pending legacy request,
// what `next()` stops at, and the legacy call itself.
import type { InputMethod, InputRequest } from '../protocol/input-requests.js';
import type { JsonObject, RequestId } from '../protocol/json.js';
import type { NotificationDrop } from '../telemetry/ports.js';

/** Where notifications for the current round's front request go. */
export interface FrontSink {
  progressToken?: string | number;
  logLevel?: string;
  notify(notification: { method: string; params: JsonObject }): Promise<void>;
}

/** Told of every notification that reaches no client (telemetry counts it and warns once per reason). */
export type DropNotification = (method: string, reason: NotificationDrop, detail?: string) => void;

export interface PendingInput {
  key: string;
  method: InputMethod;
  request: InputRequest;
  /** Absent for inputs the proxy made up itself (URL elicitations from a legacy -32042). */
  legacyId?: RequestId;
  respond(result: JsonObject): void;
  fail(code: number, message: string): void;
}

/** `lost` says why the session died when the call failed because of that. */
export type Outcome = { kind: 'complete'; result: JsonObject } | { kind: 'error'; error: unknown; lost?: string };
export type Stop = Outcome | { kind: 'input'; pending: PendingInput[] } | { kind: 'timeout' } | { kind: 'aborted' };

/** Where a URL-elicitation gate stands once the client's answers are in. */
export type UrlConsent = { kind: 'none' } | { kind: 'pending' } | { kind: 'declined'; action: string; message: string } | { kind: 'granted' };

export interface LegacyCall {
  method: string;
  params: JsonObject;
}
