// A structural check the SDK does not make: it silently treats a non-object `inputResponses` as
// empty, which would turn a malformed retry into a fresh round and consume the client's state.
// Both fronts run this on the raw message before handing it to the SDK. Pure.

const INTERACTIVE = new Set(['tools/call', 'prompts/get', 'resources/read']);

export interface RetryParamsError {
  code: -32602;
  message: string;
}

export function invalidRetryParams(message: unknown): RetryParamsError | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (typeof method !== 'string' || !INTERACTIVE.has(method)) return undefined;
  if (typeof params !== 'object' || params === null) return undefined;
  const p = params as Record<string, unknown>;
  if ('inputResponses' in p) {
    const r = p['inputResponses'];
    if (typeof r !== 'object' || r === null || Array.isArray(r)) {
      return { code: -32602, message: 'inputResponses must be an object keyed by the inputRequests keys' };
    }
  }
  if ('requestState' in p && typeof p['requestState'] !== 'string') {
    return { code: -32602, message: 'requestState is malformed: it must be the string the server returned' };
  }
  return undefined;
}
