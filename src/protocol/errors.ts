// Every JSON-RPC error code the proxy reads or writes, the local error families, and the helper
// that builds an error body. No other module writes a numeric code or a `{jsonrpc, id, error}`
// body by hand.

/** Codes of JSON-RPC 2.0 and of revision 2026-07-28 (S26/basic/index.mdx "Error Codes"). */
export const JSONRPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** 2026-07-28: an HTTP header disagrees with the body (Mcp-Name, Mcp-Method, ...). */
  HEADER_MISMATCH: -32020,
  /** 2026-07-28: the request needs a client capability it did not declare. */
  MISSING_CLIENT_CAPABILITY: -32021,
  /** 2026-07-28: the requested protocol version is not served here. */
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
} as const;

/** Codes only legacy revisions (and the v1 SDK) use; read from the legacy side, never emitted. */
export const LEGACY = {
  /** v1 SDK ConnectionClosed: the transport ended under a pending request. */
  CONNECTION_CLOSED: -32000,
  /** v1 SDK RequestTimeout; legacy Streamable HTTP also uses it for "Session not found". */
  REQUEST_TIMEOUT: -32001,
  SESSION_NOT_FOUND: -32001,
  /** Before 2026-07-28, "resource not found"; now -32602. */
  RESOURCE_NOT_FOUND: -32002,
  /** 2025-11-25 URLElicitationRequiredError; now a URL elicitation input request. */
  URL_ELICITATION_REQUIRED: -32042,
  /** The range the spec reserves (2026-07-28 emits only the codes it defines there). */
  RESERVED_LOW: -32099,
  RESERVED_HIGH: -32020,
  /** The legacy convention for "the user rejected the sampling request". */
  SAMPLING_REJECTED: -1,
} as const;

/** The 2026-07-28 errors that prove the peer is a modern server (era probing). */
export const MODERN_ONLY_CODES: ReadonlySet<number> = new Set([
  JSONRPC.HEADER_MISMATCH,
  JSONRPC.MISSING_CLIENT_CAPABILITY,
  JSONRPC.UNSUPPORTED_PROTOCOL_VERSION,
]);

export type ProxyErrorCode =
  | 'state_invalid' // requestState failed to open or does not belong to this request
  | 'interaction_gone' // the suspended interaction expired, completed or was lost
  | 'input_invalid' // inputResponses malformed
  | 'capability_missing' // the legacy server asked for something the client did not declare
  | 'upstream_unavailable' // no legacy session could be obtained
  | 'overloaded' // the call would need a share of the legacy sessions that is used up
  | 'principal_limit' // this principal already runs or waits on as many calls as it may
  | 'upstream_failed' // the legacy server or its transport failed during the call
  | 'timeout' // the proxy's own per-call timeout fired
  | 'declined' // the user declined input the legacy server cannot do without
  | 'store_unavailable' // the shared state store cannot be reached (replay retries fail closed; other instances' tasks cannot be read)
  | 'task_unknown'; // a task id that names no task this proxy holds for the caller (tasks extension)

const WIRE_CODE: Record<ProxyErrorCode, number> = {
  state_invalid: JSONRPC.INVALID_PARAMS,
  interaction_gone: JSONRPC.INVALID_PARAMS,
  input_invalid: JSONRPC.INVALID_PARAMS,
  capability_missing: JSONRPC.MISSING_CLIENT_CAPABILITY,
  upstream_unavailable: JSONRPC.INTERNAL_ERROR,
  overloaded: JSONRPC.INTERNAL_ERROR,
  principal_limit: JSONRPC.INTERNAL_ERROR,
  upstream_failed: JSONRPC.INTERNAL_ERROR,
  timeout: JSONRPC.INTERNAL_ERROR,
  declined: JSONRPC.INVALID_PARAMS,
  store_unavailable: JSONRPC.INTERNAL_ERROR,
  task_unknown: JSONRPC.INVALID_PARAMS,
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

/** A whole JSON-RPC error response. `id` is null when the request's id could not be read. */
export interface ErrorBody {
  jsonrpc: '2.0';
  id: string | number | null;
  error: WireError;
}

/**
 * The JSON-RPC id of a parsed request body, for errors answered before the body reaches a handler
 * (no such upstream, shutting down). A body that is not one request with a string or number id
 * gives null, as JSON-RPC says for an id that cannot be read.
 */
export function requestIdOf(body: unknown): string | number | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

export function errorBody(id: unknown, code: number, message: string, data?: unknown): ErrorBody {
  const rid = typeof id === 'string' || typeof id === 'number' ? id : null;
  return { jsonrpc: '2.0', id: rid, error: data === undefined ? { code, message } : { code, message, data } };
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
