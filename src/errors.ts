// The two error families. Local failures carry a string-literal code; `toJsonRpcError` is the one
// table that turns them into wire errors, so no other module picks JSON-RPC codes by hand.

export const JSONRPC = {
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** 2026-07-28: the request needs a client capability it did not declare. */
  MISSING_CLIENT_CAPABILITY: -32021,
} as const;

export type ProxyErrorCode =
  | 'state_invalid' // requestState failed to open or does not belong to this request
  | 'interaction_gone' // the suspended interaction expired, completed or was lost
  | 'input_invalid' // inputResponses malformed
  | 'capability_missing' // the legacy server asked for something the client did not declare
  | 'upstream_unavailable' // no legacy session could be obtained
  | 'upstream_failed' // the legacy server or its transport failed during the call
  | 'timeout' // the proxy's own per-call timeout fired
  | 'declined'; // the user declined input the legacy server cannot do without

const WIRE_CODE: Record<ProxyErrorCode, number> = {
  state_invalid: JSONRPC.INVALID_PARAMS,
  interaction_gone: JSONRPC.INVALID_PARAMS,
  input_invalid: JSONRPC.INVALID_PARAMS,
  capability_missing: JSONRPC.MISSING_CLIENT_CAPABILITY,
  upstream_unavailable: JSONRPC.INTERNAL_ERROR,
  upstream_failed: JSONRPC.INTERNAL_ERROR,
  timeout: JSONRPC.INTERNAL_ERROR,
  declined: JSONRPC.INVALID_PARAMS,
};

export class ProxyError extends Error {
  override readonly name = 'ProxyError';
  constructor(
    readonly code: ProxyErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** An error exactly as it goes on the wire. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

export function toWireError(err: ProxyError): WireError {
  return { code: WIRE_CODE[err.code], message: err.message, ...(err.data === undefined ? {} : { data: err.data }) };
}

/** Configuration problems: reported by the CLI with exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A legacy server's error, already translated to what 2026-07-28 allows on the wire. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(readonly wire: WireError) {
    super(wire.message);
  }
}
