// Why the bridge will not suspend a call for the client: a legacy request needs a client
// capability the front request did not declare (2026-07-28 capabilities are per request, so the
// proxy never forwards what was not declared), or the held calls' share of the legacy sessions
// (--waiting-share) is used up. Both end the interaction and throw the error the client sees.
import type { FrontCapabilities } from '../protocol/capabilities.js';
import { describeCapabilities, missingCapabilities } from '../protocol/capabilities.js';
import { JSONRPC, ProxyError } from '../protocol/errors.js';
import { inputRequestsOf } from '../protocol/input-requests.js';
import type { Interaction, PendingInput } from './interaction.js';

/** Throws `capability_missing` (after refusing the request upstream and calling `end`) when one is undeclared. */
export function refuseUndeclared(
  interaction: Interaction,
  capabilities: FrontCapabilities,
  pending: readonly PendingInput[],
  end: (why: string) => void,
): void {
  for (const p of pending) {
    const required = missingCapabilities(p.method, p.request.params, capabilities);
    if (!required) continue;
    const names = describeCapabilities(required);
    interaction.refuse(
      p.key,
      p.method === 'elicitation/create' ? JSONRPC.INVALID_PARAMS : JSONRPC.METHOD_NOT_FOUND,
      `the client did not declare the ${names} capability`,
    );
    end(`undeclared capability ${names}`);
    throw new ProxyError(
      'capability_missing',
      'capability_undeclared',
      `the legacy server asked for ${p.method}, which needs the ${names} client capability this request did not declare`,
      { requiredCapabilities: required },
    );
  }
}

/**
 * Takes a waiting-share slot for a held call (it parks once its session has been quiet for
 * `settleMs`); without one, calls `end` and throws `overloaded` / `waiting_limit`.
 */
export function takeWaitingSlot(interaction: Interaction, settleMs: number, end: (why: string) => void): void {
  if (interaction.startWaiting(settleMs)) return;
  end('too many interactions are waiting for clients');
  throw new ProxyError(
    'overloaded',
    'waiting_limit',
    'too many calls are waiting for input from their clients: the legacy sessions they may hold (--waiting-share of --max-sessions) are all taken, so this call was cancelled rather than left waiting; try again later',
  );
}

/** The front's answer for a suspended round: these requests for the client, and the state its retry brings back. */
export function inputRequired(
  pending: readonly PendingInput[],
  requestState: string,
): { resultType: 'input_required'; inputRequests: Record<string, unknown>; requestState: string } {
  return { resultType: 'input_required', inputRequests: inputRequestsOf(pending), requestState };
}
