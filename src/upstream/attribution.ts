// Which in-flight call a legacy server's request (elicitation, sampling, roots) belongs to, on a
// session that may carry many calls at once. Over Streamable HTTP the server sends a call's request
// on that call's POST response stream (the v1 SDK's `relatedRequestId`): that is provenance, and it
// is exact. A request on the standalone GET stream, or on a transport that has no streams per call
// (stdio, HTTP+SSE, WebSocket), has none; it is still unambiguous when exactly one call that might
// send it is running: a parked call's legacy handler waits for the answers to the requests it
// already sent, so a running call is the likelier sender. The pool keeps it so (one runner per
// session, see lease-choice.ts). A handler that awaits two requests together may still send the
// second after it parked: with no other call on the session, that request is the parked call's,
// and its key is leased exclusively from then on.
// Pure: the session applies the route.
import type { RequestId } from '../protocol/json.js';

/** Where a server→client message arrived: on the response stream of request `requestId`, or nowhere in particular. */
export type Provenance = { kind: 'call'; requestId: RequestId } | { kind: 'none' };

export const NO_PROVENANCE: Provenance = { kind: 'none' };

/** An interactive call in flight on a session, by the id of its legacy request. */
export interface InFlight<H> {
  holder: H;
  /** What it calls (see askKey). */
  key: string;
  /**
   * Leased as a call whose requests may come untied (a runner, or exclusively): a candidate for
   * an untied request while it runs. Calls known to ask tied, or never, run beside it and are not.
   */
  untied: boolean;
  /** Set once a request was routed to it. */
  asked?: boolean;
}

/** A holder that can say it is parked (waiting for its client's answers). */
export interface Parkable {
  readonly parked?: boolean;
}

/** What the session learns from a route, per key (see ask-learning.ts). */
export interface Learning {
  /** Asked with provenance: may share freely. */
  tied: string[];
  /** Asked without provenance: a runner from now on. */
  untied: string[];
  /** Was among several calls that could have sent an untied request: leased exclusively from now on. */
  exclusive: string[];
}

const NOTHING: Learning = { tied: [], untied: [], exclusive: [] };

export type Route<H> =
  | { kind: 'holder'; call: InFlight<H>; learn: Learning }
  /** Nobody it could belong to: the let-go holder or the outside-call policy answers (as for an unheld session). */
  | { kind: 'local'; learn: Learning }
  /** It belongs to one of several calls and nothing says which: answer it with an error. */
  | { kind: 'refuse'; message: string; candidates: string[]; learn: Learning };

/**
 * - On a call's stream: that call's, and its key asks tied (a stream of a request no interaction
 *   made, such as a forwarded tools/list, gets the local answer).
 * - Without provenance, among the running calls (a parked call waits on its own requests):
 *   - exactly one untied candidate: that call's (its key asks untied, unless it is roots/list,
 *     which servers also ask outside calls);
 *   - no candidate, and the session is being let go (`lettingGo`): the let-go holder's;
 *   - no candidate and exactly one running call: that call's, as on an exclusive session (its key
 *     changed how it asks: untied from now on);
 *   - no call at all: an outside call, answered locally;
 *   - no running call and exactly one parked call: the parked call's, asked in its next round (its
 *     key is leased exclusively from now on, unless it is roots/list);
 *   - otherwise several calls could have sent it: roots/list gets the local answer (every call
 *     sharing a session shares its roots binding), anything else is refused, and every candidate's
 *     key is leased exclusively from now on.
 */
export function routeServerRequest<H extends Parkable>(
  method: string,
  provenance: Provenance,
  calls: ReadonlyMap<RequestId, InFlight<H>>,
  lettingGo = false,
): Route<H> {
  if (provenance.kind === 'call') {
    const call = calls.get(provenance.requestId);
    return call ? { kind: 'holder', call, learn: { ...NOTHING, tied: [call.key] } } : { kind: 'local', learn: NOTHING };
  }
  const running: InFlight<H>[] = [];
  const candidates: InFlight<H>[] = [];
  for (const call of calls.values()) {
    if (call.holder.parked) continue;
    running.push(call);
    if (call.untied) candidates.push(call);
  }
  const roots = method === 'roots/list';
  if (candidates.length === 1) {
    const only = candidates[0]!;
    return { kind: 'holder', call: only, learn: roots ? NOTHING : { ...NOTHING, untied: [only.key] } };
  }
  if (candidates.length === 0) {
    if (lettingGo || calls.size === 0) return { kind: 'local', learn: NOTHING };
    if (running.length === 1) {
      const only = running[0]!;
      return { kind: 'holder', call: only, learn: roots ? NOTHING : { ...NOTHING, untied: [only.key] } };
    }
    if (running.length === 0 && calls.size === 1) {
      // A parked call that asks again had a request in flight beside the one it waits on (two
      // questions awaited together, the second sent later): it joins that call's next round.
      // Asking while parked breaks the rule the runner slot relies on, so it runs alone from now on.
      const only = calls.values().next().value as InFlight<H>;
      return { kind: 'holder', call: only, learn: roots ? NOTHING : { ...NOTHING, exclusive: [only.key] } };
    }
  }
  if (roots) return { kind: 'local', learn: NOTHING };
  const suspects = candidates.length > 0 ? candidates : running.length > 0 ? running : [...calls.values()];
  const keys = [...new Set(suspects.map((c) => c.key))];
  return {
    kind: 'refuse',
    candidates: keys,
    learn: { ...NOTHING, exclusive: keys },
    message: `mrtr-proxy cannot tell which of the ${suspects.length} ${running.length > 0 ? 'running' : 'waiting'} calls on this legacy session sent this ${method}: the server did not send it on a call's response stream. ${keys.join(', ')} will get a legacy session of their own from now on; call again`,
  };
}

/** Where a notification (a log line) without a progress token goes: its call's holder, or the one running call. */
export function routeNotification<H extends Parkable>(provenance: Provenance, calls: ReadonlyMap<RequestId, InFlight<H>>): H | undefined {
  if (provenance.kind === 'call') return calls.get(provenance.requestId)?.holder;
  if (calls.size === 1) return (calls.values().next().value as InFlight<H>).holder;
  let found: H | undefined;
  for (const call of calls.values()) {
    if (call.holder.parked) continue;
    if (found !== undefined) return undefined;
    found = call.holder;
  }
  return found;
}
