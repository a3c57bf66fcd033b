// What the official front's handlers need of the HTTP request they serve, carried on the one
// per-request channel the v2 SDK passes through to them untouched: `authInfo`, which its node
// adapter takes from `req.auth`. The auth gate puts the principal there (auth-gate.ts); this adds
// the request's telemetry record and, for a call the fast lane already ran, its outcome
// (precomputed.ts). A request nobody authenticated gets an authInfo with no token, no client and no
// scopes: the SDK reads it only to hand it to the handlers.
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import { type FrontRequest, frontRequestOf } from '../telemetry/front-request.js';

const RECORD_KEY = 'mrtr.frontRequest';
const PRECOMPUTED_KEY = 'mrtr.precomputed';

/** The node request (any object the node adapter reads `auth` from). */
type Carrier = { auth?: AuthInfo };

/** Puts the request's telemetry record where the handlers find it (`recordOfContext`). */
export function carryToHandlers(req: object): void {
  const record = frontRequestOf(req);
  if (record !== undefined) extraOf(req)[RECORD_KEY] = record;
}

/** The telemetry record of the HTTP request a handler serves. */
export function recordOfContext(ctx: ServerContext): FrontRequest | undefined {
  return recordOfAuth(ctx.http?.authInfo);
}

/** The same, from the authInfo the SDK's entry was given. */
export function recordOfAuth(authInfo: AuthInfo | undefined): FrontRequest | undefined {
  return authInfo?.extra?.[RECORD_KEY] as FrontRequest | undefined;
}

/** Attaches `value` for the handler of this request to take once (`takeForHandler`). */
export function carryForHandler(req: object, value: unknown): void {
  extraOf(req)[PRECOMPUTED_KEY] = value;
}

/** What `carryForHandler` attached to the request `ctx` serves, once, if `accept` takes it. */
export function takeForHandler<T>(ctx: ServerContext, accept: (value: T) => boolean): T | undefined {
  const extra = ctx.http?.authInfo?.extra;
  const value = extra?.[PRECOMPUTED_KEY] as T | undefined;
  if (extra === undefined || value === undefined || !accept(value)) return undefined;
  delete extra[PRECOMPUTED_KEY];
  return value;
}

function extraOf(carrier: object): Record<string, unknown> {
  const req = carrier as Carrier;
  req.auth ??= { token: '', clientId: '', scopes: [] };
  req.auth.extra ??= {};
  return req.auth.extra;
}
