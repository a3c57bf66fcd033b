// Every failure a front handler can meet, turned into the v2 SDK's ProtocolError (which the SDK
// writes on the wire as a JSON-RPC error). Internal faults are -32603, never dressed as -32602.
import { ProtocolError } from '@modelcontextprotocol/server';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPC, LEGACY, ProxyError, UpstreamError, toWireError, type WireError } from '../protocol/errors.js';
import { stripSdkPrefix, translateLegacyError } from '../protocol/legacy-errors.js';
import type { FrontRequest } from '../telemetry/front-request.js';
import type { Logger } from '../telemetry/logger.js';

/** `record`: the front request answered with it, whose telemetry learns the code. */
export function toProtocolError(err: unknown, log: Logger, record: FrontRequest | undefined): ProtocolError {
  const wire = frontWireError(err, log);
  record?.error(wire.code);
  return new ProtocolError(wire.code, wire.message, wire.data);
}

/** The wire error a front answers `err` with (the fast lane writes it itself); internal faults are logged. */
export function frontWireError(err: unknown, log: Logger): WireError {
  if (err instanceof ProtocolError) return { code: err.code, message: err.message, data: err.data };
  if (err instanceof ProxyError) return toWireError(err);
  if (err instanceof UpstreamError) return err.wire;
  if (err instanceof McpError) {
    if (err.code === LEGACY.CONNECTION_CLOSED || err.code === LEGACY.REQUEST_TIMEOUT) {
      return { code: JSONRPC.INTERNAL_ERROR, message: `the legacy server did not complete the request: ${stripSdkPrefix(err.message)}` };
    }
    const t = translateLegacyError(err.code, err.message, err.data);
    // URL elicitation can only be asked for on an interactive method.
    return t.kind === 'error' ? t.error : { code: JSONRPC.INTERNAL_ERROR, message: t.message };
  }
  log.error('internal error', { error: (err as Error)?.stack ?? String(err) });
  return { code: JSONRPC.INTERNAL_ERROR, message: 'internal error in mrtr-proxy' };
}
