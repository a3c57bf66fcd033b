// What the proxy reads or replaces of the v1 SDK's Protocol internals (private members), in one
// place: an SDK upgrade that changes them is to be checked here (unit and contract tests use each).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { MAX_TIMER_MS } from '../config/defaults.js';

/** The id the SDK's Protocol gives the next request it sends (a private counter, read only). */
export function nextRequestId(client: Client): number {
  return (client as unknown as { _requestMessageId: number })._requestMessageId;
}

/** The SDK keeps one AbortController per in-flight incoming request in a private map. */
export function sdkHandlerControllers(client: Client): Map<RequestId, AbortController> {
  return (client as unknown as { _requestHandlerAbortControllers: Map<RequestId, AbortController> })._requestHandlerAbortControllers;
}

/**
 * The SDK arms a timer for every request, also for one whose timeout is the longest Node allows
 * (see LegacySession.request: the proxy applies its own timeouts). Such a timer never fires in practice, and a
 * call waiting for its user would keep it, its record and its handler: skip it.
 */
export function armNoTimerForTheLongest(client: Client): void {
  const sdk = client as unknown as { _setupTimeout?: (id: number, timeout: number, ...rest: unknown[]) => void };
  const setup = sdk._setupTimeout;
  if (typeof setup !== 'function') throw new Error('the v1 SDK Protocol has no _setupTimeout any more: see sdk-internals.ts');
  sdk._setupTimeout = function (this: unknown, id, timeout, ...rest) {
    if (timeout < MAX_TIMER_MS) setup.call(this, id, timeout, ...rest);
  };
}
