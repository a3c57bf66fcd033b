// What the proxy answers itself when the legacy server asks while no interactive call holds the
// session (right after initialize, during tools/list, ...): there is no 2026-07-28 request that
// could carry the question to the client. Pure.
import { JSONRPC, LEGACY } from './errors.js';
import type { Root } from './json.js';

export type LocalAnswer = { result: Record<string, unknown> } | { error: { code: number; message: string } };

export function answerLocally(method: string, roots: readonly Root[]): LocalAnswer {
  switch (method) {
    case 'roots/list':
      return { result: { roots: roots.map((r) => ({ ...r })) } };
    case 'elicitation/create':
      return { result: { action: 'cancel' } };
    case 'sampling/createMessage':
      return {
        error: { code: LEGACY.SAMPLING_REJECTED, message: 'sampling is only available during an interactive call (tools/call, prompts/get, resources/read)' },
      };
    default:
      return { error: { code: JSONRPC.METHOD_NOT_FOUND, message: `mrtr-proxy does not answer ${method}` } };
  }
}
