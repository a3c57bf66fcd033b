// What the official front's handlers need of the HTTP request they serve: its telemetry record
// and, for a call the fast lane already ran, its outcome (precomputed.ts). The v2 SDK hands each
// handler the web `Request` it serves (`ctx.http.req`, the same object its node adapter passed to
// the handler's `fetch`), so the context is kept against that object for as long as it lives.
// The request's `authInfo` stays what the auth gate made of it (auth-gate.ts), or absent.
import type { ServerContext } from '@modelcontextprotocol/server';
import { type FrontRequest, frontRequestOf } from '../telemetry/front-request.js';

/** One HTTP request's context, made when the front starts serving it. */
export interface HandlerContext {
  readonly record: FrontRequest | undefined;
  /** The fast lane's outcome for the request with this JSON-RPC id, taken once. */
  precomputed?: { id: string | number; value: unknown } | undefined;
}

/** By the node request, from the moment the front takes it up; by the web Request the SDK made of it. */
const byNodeRequest = new WeakMap<object, HandlerContext>();
const byWebRequest = new WeakMap<Request, HandlerContext>();

/** The context of the node request `req` (made on first use, with the request's telemetry record). */
export function contextOfNode(req: object): HandlerContext {
  let context = byNodeRequest.get(req);
  if (context === undefined) {
    context = { record: frontRequestOf(req) };
    byNodeRequest.set(req, context);
  }
  return context;
}

/** The SDK made `request` of the node request `req`: its handlers find `req`'s context from it. */
export function linkWebRequest(req: object, request: Request): void {
  byWebRequest.set(request, contextOfNode(req));
}

/** The context of the web Request the SDK serves. */
export function contextOfRequest(request: Request | undefined): HandlerContext | undefined {
  return request === undefined ? undefined : byWebRequest.get(request);
}

/** The telemetry record of the HTTP request a handler serves. */
export function recordOfContext(ctx: ServerContext): FrontRequest | undefined {
  return contextOfRequest(ctx.http?.req)?.record;
}

/** Attaches `value` for the handler of JSON-RPC request `id` of `req` to take once (`takeForHandler`). */
export function carryForHandler(req: object, id: string | number, value: unknown): void {
  contextOfNode(req).precomputed = { id, value };
}

/** What `carryForHandler` attached for the request `ctx` serves, once. */
export function takeForHandler<T>(ctx: ServerContext): T | undefined {
  const context = contextOfRequest(ctx.http?.req);
  const held = context?.precomputed;
  if (context === undefined || held === undefined || held.id !== ctx.mcpReq.id) return undefined;
  context.precomputed = undefined;
  return held.value as T;
}
