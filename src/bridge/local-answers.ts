// What the proxy answers itself when the legacy server asks while no interactive call holds the
// session (right after initialize, during tools/list, ...): there is no 2026-07-28 request that
// could carry the question to the client. Pure.
import type { Root } from '../config/types.js';

export type LocalAnswer = { result: Record<string, unknown> } | { error: { code: number; message: string } };

export function answerLocally(method: string, roots: readonly Root[]): LocalAnswer {
  switch (method) {
    case 'roots/list':
      return { result: { roots: roots.map((r) => ({ ...r })) } };
    case 'elicitation/create':
      return { result: { action: 'cancel' } };
    case 'sampling/createMessage':
      return { error: { code: -1, message: 'sampling is only available during an interactive call (tools/call, prompts/get, resources/read)' } };
    default:
      return { error: { code: -32601, message: `mrtr-proxy does not answer ${method}` } };
  }
}
