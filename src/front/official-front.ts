// What the proxy adds around the official v2 front's HTTP handler (the SDK's `createMcpHandler`):
// each handler finds the telemetry record of the HTTP request it serves, and whole JSON error
// bodies get the HTTP status the 2026-07-28 binding wants (see protocol/http-status.ts).
//
// The v2 SDK hands each handler the web `Request` it serves (`ctx.http.req`, the same object its
// node adapter passed to the handler's `fetch`), so the record is found from that object for as
// long as it lives. The request's `authInfo` stays what the auth gate made of it (auth-gate.ts),
// or absent.
import type { McpHttpHandler, ServerContext } from '@modelcontextprotocol/server';
import { errorCodeOf, statusForCode } from '../protocol/http-status.js';
import { type FrontRequest, frontRequestOf } from '../telemetry/front-request.js';

/** By the web Request the SDK made of a node request: that node request's telemetry record. */
const byWebRequest = new WeakMap<Request, FrontRequest | undefined>();

/** The SDK made `request` of the node request `req`: its handlers find `req`'s record from it. */
export function linkWebRequest(req: object, request: Request): void {
  byWebRequest.set(request, frontRequestOf(req));
}

/** The telemetry record of the HTTP request a handler serves. */
export function recordOfContext(ctx: ServerContext): FrontRequest | undefined {
  const request = ctx.http?.req;
  return request === undefined ? undefined : byWebRequest.get(request);
}

/** The official handler with its whole JSON error bodies re-statused; telemetry learns their code. A stream that already started keeps its 200. */
export function withErrorStatuses(handler: McpHttpHandler): Pick<McpHttpHandler, 'fetch'> {
  return {
    fetch: async (request, options) => {
      const response = await handler.fetch(request, options);
      if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response;
      const body = await response.text();
      const code = errorCodeOf(body);
      if (code !== undefined) byWebRequest.get(request)?.error(code);
      const status = response.status === 200 ? (statusForCode(code) ?? 200) : response.status;
      return new Response(body, { status, headers: response.headers });
    },
  };
}
