// A structural check the SDK does not make: it silently treats a non-object `inputResponses` as
// empty, which would turn a malformed retry into a fresh round and consume the client's state.
// Both fronts run this on the raw message before handing it to the SDK. tasks/update's answers are
// lifted by the SDK the same way, so its `inputResponses` is checked here too. Pure.
import { JSONRPC, type WireError } from './errors.js';
import { isInteractiveMethod } from './methods.js';

export type RetryParamsError = WireError & { code: typeof JSONRPC.INVALID_PARAMS };

export function invalidRetryParams(message: unknown): RetryParamsError | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  const interactive = isInteractiveMethod(method);
  if (!interactive && method !== 'tasks/update') return undefined;
  if (typeof params !== 'object' || params === null) return undefined;
  const p = params as Record<string, unknown>;
  if ('inputResponses' in p) {
    const r = p['inputResponses'];
    if (typeof r !== 'object' || r === null || Array.isArray(r)) {
      return { code: JSONRPC.INVALID_PARAMS, message: 'inputResponses must be an object keyed by the inputRequests keys' };
    }
  }
  if (interactive && 'requestState' in p && typeof p['requestState'] !== 'string') {
    return { code: JSONRPC.INVALID_PARAMS, message: 'requestState is malformed: it must be the string the server returned' };
  }
  return undefined;
}
