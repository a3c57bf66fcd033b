// Every JSON-RPC error code the proxy reads or writes, the local error families, and the helper
// that builds an error body. No other module writes a numeric code or a `{jsonrpc, id, error}`
// body by hand.
import { type Action, actionOf, type ProxyErrorCode, type ReasonOf } from './reasons.js';

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

export type { Action, ProxyErrorCode, ReasonOf } from './reasons.js';

// What each local family means is in reasons.ts; its reasons and their actions in docs/errors.md.
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
  session_limit: JSONRPC.INTERNAL_ERROR,
  internal: JSONRPC.INTERNAL_ERROR,
};

/** The JSON-RPC code errors of a local family go on the wire with. */
export function wireCodeOf(code: ProxyErrorCode): number {
  return WIRE_CODE[code];
}

/** What an error says besides its reason and action (`limit`, `key`, `requiredCapabilities`, ...). */
export type ErrorExtra = Record<string, unknown> & { reason?: never; action?: never };

/** The data every ProxyError carries: why (`reason`), what the client should do (`action`), and any extra. */
export type ErrorData = { reason: string; action: Action } & Record<string, unknown>;

/** A ProxyError's arguments: a family, one of that family's reasons, the message, any extra data. */
export type ProxyErrorArgs = {
  [C in ProxyErrorCode]: [code: C, reason: ReasonOf<C>, message: string, extra?: ErrorExtra];
}[ProxyErrorCode];

/**
 * An error the proxy makes, always from one of its family's reasons (reasons.ts), so that its
 * `data.reason` and `data.action` are there and agree with the table; a reason the table does not
 * list for the family does not compile.
 */
export class ProxyError extends Error {
  override readonly name = 'ProxyError';
  readonly code: ProxyErrorCode;
  readonly reason: string;
  readonly data: ErrorData;
  constructor(...[code, reason, message, extra]: ProxyErrorArgs) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.data = { reason, action: actionOf(code, reason as never), ...extra };
  }
}

/** An error exactly as it goes on the wire. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

export function toWireError(err: ProxyError): WireError {
  return { code: WIRE_CODE[err.code], message: err.message, data: err.data };
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
