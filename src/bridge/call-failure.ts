// What a legacy call that failed means for its front request. Pure. The session ended (or the
// server failed without a JSON-RPC error): the call is lost. A -32042 URL-elicitation-required
// error: the user must visit URLs first, so the call becomes a round. Any other JSON-RPC error:
// the call completed with it, translated for the 2026-07-28 client.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { LEGACY } from '../protocol/errors.js';
import { type TranslatedError, translateLegacyError } from '../protocol/legacy-errors.js';

export type CallFailure = { kind: 'lost'; message: string } | TranslatedError;

/** `lost`: why the session ended, when the interaction knows it. */
export function classifyFailure(error: unknown, lost: string | undefined): CallFailure {
  if (lost !== undefined || (error instanceof McpError && error.code === LEGACY.CONNECTION_CLOSED)) {
    return { kind: 'lost', message: `the legacy server session ended during the call (${lost || 'connection closed'})` };
  }
  if (!(error instanceof McpError)) {
    return { kind: 'lost', message: `the legacy server failed during the call: ${(error as Error)?.message ?? String(error)}` };
  }
  return translateLegacyError(error.code, error.message, error.data);
}
