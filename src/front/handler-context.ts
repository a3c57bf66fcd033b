// What the official front's handlers need of the HTTP request they serve: its telemetry record.
// The v2 SDK hands each handler the web `Request` it serves (`ctx.http.req`, the same object its
// node adapter passed to the handler's `fetch`), so the record is found from that object for as
// long as it lives. The request's `authInfo` stays what the auth gate made of it (auth-gate.ts),
// or absent.
import type { ServerContext } from '@modelcontextprotocol/server';
import { type FrontRequest, frontRequestOf } from '../telemetry/front-request.js';

/** By the web Request the SDK made of a node request: that node request's telemetry record. */
const byWebRequest = new WeakMap<Request, FrontRequest | undefined>();

/** The SDK made `request` of the node request `req`: its handlers find `req`'s record from it. */
export function linkWebRequest(req: object, request: Request): void {
  byWebRequest.set(request, frontRequestOf(req));
}

/** The telemetry record of the node request the SDK made `request` of. */
export function recordOfRequest(request: Request | undefined): FrontRequest | undefined {
  return request === undefined ? undefined : byWebRequest.get(request);
}

/** The telemetry record of the HTTP request a handler serves. */
export function recordOfContext(ctx: ServerContext): FrontRequest | undefined {
  return recordOfRequest(ctx.http?.req);
}
