// Legacy JSON-RPC errors -> 2026-07-28 errors. Pure.
//
// 2026-07-28 forbids -32002 (now -32602) and -32042 (URL elicitation is an input request now), and
// no implementation may emit a code in -32020..-32099 that the spec does not define. The v1 SDK
// prefixes messages with "MCP error N: ", which is its wrapping, not the server's message.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPC, LEGACY, type WireError } from './errors.js';

export type TranslatedError = { kind: 'error'; error: WireError } | { kind: 'url_required'; message: string; elicitations: Record<string, unknown>[] };

export function stripSdkPrefix(message: string): string {
  // v1 servers put the prefix on the wire too, so the client's copy can carry it twice.
  return message.replace(/^(MCP error -?\d+: )+/, '');
}

export function translateLegacyError(code: number, rawMessage: string, data: unknown): TranslatedError {
  const message = stripSdkPrefix(rawMessage);
  if (code === LEGACY.RESOURCE_NOT_FOUND) return { kind: 'error', error: withData(JSONRPC.INVALID_PARAMS, message, data) };
  if (code === LEGACY.URL_ELICITATION_REQUIRED) {
    const elicitations = urlElicitations(data);
    if (elicitations.length > 0) return { kind: 'url_required', message, elicitations };
  }
  if (code >= LEGACY.RESERVED_LOW && code <= LEGACY.RESERVED_HIGH) {
    // Keep what the legacy server said, but under a code 2026-07-28 allows.
    return {
      kind: 'error',
      error: { code: JSONRPC.INTERNAL_ERROR, message, data: { upstreamCode: code, ...(data === undefined ? {} : { upstreamData: data }) } },
    };
  }
  return { kind: 'error', error: withData(code, message, data) };
}

function withData(code: number, message: string, data: unknown): WireError {
  return data === undefined ? { code, message } : { code, message, data };
}

function urlElicitations(data: unknown): Record<string, unknown>[] {
  if (typeof data !== 'object' || data === null) return [];
  const list = (data as Record<string, unknown>)['elicitations'];
  if (!Array.isArray(list)) return [];
  return list.filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null && typeof (e as Record<string, unknown>)['url'] === 'string');
}

/**
 * What a legacy call that failed means for its front request. The session ended (or the server
 * failed without a JSON-RPC error): the call is lost. A -32042 URL-elicitation-required error: the
 * user must visit URLs first, so the call becomes a round. Any other JSON-RPC error: the call
 * completed with it, translated for the 2026-07-28 client. `lost`: why the session ended, when the
 * interaction knows it.
 */
export function classifyFailure(error: unknown, lost: string | undefined): CallFailure {
  if (lost !== undefined || (error instanceof McpError && error.code === LEGACY.CONNECTION_CLOSED)) {
    return { kind: 'lost', message: `the legacy server session ended during the call (${lost || 'connection closed'})` };
  }
  if (!(error instanceof McpError)) {
    return { kind: 'lost', message: `the legacy server failed during the call: ${(error as Error)?.message ?? String(error)}` };
  }
  return translateLegacyError(error.code, error.message, error.data);
}

export type CallFailure = { kind: 'lost'; message: string } | TranslatedError;
