// The one place a thrown error becomes the JSON-RPC error a client reads. Every front (the
// official front's handlers, the fast lane, the stdio front, task methods, owner forwarding, the
// relays and the drain gate) answers with what this returns. The proxy's own errors carry
// `data.reason` and `data.action` (reasons.ts); a legacy server's error goes out as that server
// wrote it (translated to 2026-07-28 codes), since its data is the server's; anything else is a
// fault of the proxy: -32603 `internal`, its stack logged here and never sent.
import { ProtocolError } from '@modelcontextprotocol/server';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { type ErrorBody, errorBody, JSONRPC, LEGACY, ProxyError, toWireError, UpstreamError, type WireError } from './errors.js';
import { stripSdkPrefix, translateLegacyError } from './legacy-errors.js';

/** Where a fault of the proxy is written (the caller's logger). */
export interface FaultLog {
  error(message: string, meta: Record<string, unknown>): void;
}

/** What a client is told of a fault of the proxy: nothing of its internals. */
export const INTERNAL_MESSAGE = 'internal error in mrtr-proxy';

export function encodeError(err: unknown, log: FaultLog): WireError {
  if (err instanceof ProxyError) return toWireError(err);
  // The SDK's own refusals (invalid params, unknown method) and errors already encoded.
  if (err instanceof ProtocolError) return { code: err.code, message: err.message, data: err.data };
  if (err instanceof UpstreamError) return err.wire;
  if (err instanceof McpError) {
    if (err.code === LEGACY.CONNECTION_CLOSED || err.code === LEGACY.REQUEST_TIMEOUT) {
      return toWireError(
        new ProxyError('upstream_failed', 'upstream_incomplete', `the legacy server did not complete the request: ${stripSdkPrefix(err.message)}`),
      );
    }
    const t = translateLegacyError(err.code, err.message, err.data);
    // URL elicitation can only be asked for on an interactive method.
    return t.kind === 'error' ? t.error : { code: JSONRPC.INTERNAL_ERROR, message: t.message };
  }
  return internalError(err, log);
}

/** A fault of the proxy: logged once with its stack, answered as -32603 `internal`. */
export function internalError(err: unknown, log: FaultLog, what = 'internal error'): WireError {
  log.error(what, { error: (err as Error)?.stack ?? String(err) });
  return toWireError(new ProxyError('internal', 'internal', INTERNAL_MESSAGE));
}

/** The whole JSON-RPC error response to request `id` for one of the proxy's own errors (never a fault to log). */
export function proxyErrorBody(id: unknown, err: ProxyError): ErrorBody {
  const w = toWireError(err);
  return errorBody(id, w.code, w.message, w.data);
}
