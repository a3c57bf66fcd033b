// Which in-flight call a legacy server's request (elicitation, sampling, roots) belongs to, on a
// session that may carry many calls at once. Over Streamable HTTP the server sends a call's request
// on that call's POST response stream (the v1 SDK's `relatedRequestId`): that is provenance, and it
// is exact. A request on the standalone GET stream, or on a transport that has no streams per call
// (stdio, HTTP+SSE, WebSocket), has none. Pure: the session applies the route.
import type { RequestId } from '../protocol/json.js';

/** Where a server→client message arrived: on the response stream of request `requestId`, or nowhere in particular. */
export type Provenance = { kind: 'call'; requestId: RequestId } | { kind: 'none' };

export const NO_PROVENANCE: Provenance = { kind: 'none' };

/** An interactive call in flight on a session, by the id of its legacy request. */
export interface InFlight<H> {
  holder: H;
  /** What it calls (see askKey): learned as "asks" when one of its requests had no provenance. */
  key: string;
  /** Set once a request was routed to it. */
  asked?: boolean;
}

export type Route<H> =
  /** `learn`: keys that asked without provenance, to be leased exclusively from now on. */
  | { kind: 'holder'; call: InFlight<H>; learn: string[] }
  /** Nobody it could belong to: the outside-call policy answers (as for an unheld session). */
  | { kind: 'local'; learn: string[] }
  /** It belongs to one of several calls and nothing says which: answer it with an error. */
  | { kind: 'refuse'; message: string; learn: string[] };

/**
 * - On a call's stream: that call's (a stream of a request no interaction made, such as a
 *   forwarded tools/list, gets the local answer).
 * - Without provenance and no call in flight: an outside call, answered locally.
 * - Without provenance and exactly one call in flight: that call's, as on an exclusive session; the
 *   call's key is learned as asking (unless it is roots/list, which servers also ask outside calls).
 * - Without provenance and several calls: roots/list gets the local answer (every call sharing a
 *   session shares its roots binding, so that answer is the same for all of them); anything else is
 *   refused, and every key in flight is learned as asking, since any of them may have asked.
 */
export function routeServerRequest<H>(method: string, provenance: Provenance, calls: ReadonlyMap<RequestId, InFlight<H>>): Route<H> {
  if (provenance.kind === 'call') {
    const call = calls.get(provenance.requestId);
    return call ? { kind: 'holder', call, learn: [] } : { kind: 'local', learn: [] };
  }
  if (calls.size === 0) return { kind: 'local', learn: [] };
  if (calls.size === 1) {
    const only = calls.values().next().value as InFlight<H>;
    return { kind: 'holder', call: only, learn: method === 'roots/list' ? [] : [only.key] };
  }
  if (method === 'roots/list') return { kind: 'local', learn: [] };
  const keys = [...new Set([...calls.values()].map((c) => c.key))];
  return {
    kind: 'refuse',
    learn: keys,
    message: `mrtr-proxy cannot tell which of the ${calls.size} calls sharing this legacy session sent this ${method}: the server did not send it on a call's response stream. ${keys.join(', ')} will get a legacy session of their own from now on; call again`,
  };
}

/** Where a notification (a log line) without a progress token goes: its call's holder, or nobody. */
export function routeNotification<H>(provenance: Provenance, calls: ReadonlyMap<RequestId, InFlight<H>>): H | undefined {
  if (provenance.kind === 'call') return calls.get(provenance.requestId)?.holder;
  return calls.size === 1 ? (calls.values().next().value as InFlight<H>).holder : undefined;
}
