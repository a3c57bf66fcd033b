// Which way a call waits for the client while a legacy server asks: `hold` keeps the legacy call
// suspended on its session in this process; `replay` lets it go and runs it again on the retry,
// answering from the record in requestState. The rule (chooseSuspension) is pure; chooseMode feeds
// it the tool's annotations (from tools/list, when the upstream can tell them) and what replay
// learned of it (unstable-questions.ts), and logs the choice with its reason.
import type { FrontCapabilities } from '../protocol/capabilities.js';
import type { InteractiveMethod } from '../protocol/methods.js';
import type { Logger } from '../telemetry/logger.js';

export type SuspendMode = 'auto' | 'hold' | 'replay';

/** Per upstream: a default and the tools the operator names either way. */
export interface SuspendPolicy {
  default: SuspendMode;
  replay: readonly string[];
  hold: readonly string[];
}

/** What `tools/list` says about a tool (MCP ToolAnnotations); absent when unknown. */
export interface ToolHints {
  readOnlyHint?: unknown;
  idempotentHint?: unknown;
}

export interface Choice {
  mode: 'hold' | 'replay';
  /** Why, for the log. */
  why: string;
}

/** What the operator decided for this call (a tool list, or a `hold`/`replay` default); undefined in `auto`. */
export function operatorChoice(method: InteractiveMethod, target: string, policy: SuspendPolicy): Choice | undefined {
  if (method === 'tools/call') {
    if (policy.hold.includes(target)) return { mode: 'hold', why: 'the tool is in suspend.hold' };
    if (policy.replay.includes(target)) return { mode: 'replay', why: 'the tool is in suspend.replay' };
  }
  if (policy.default !== 'auto') return { mode: policy.default, why: `suspend mode ${policy.default}` };
  return undefined;
}

/**
 * The operator's tool lists win, then a `hold`/`replay` default. `auto` holds what was seen asking
 * other questions when run again (`unstable`: its record can never answer them), then replays
 * prompts/get and resources/read (reads by definition) and tools annotated readOnlyHint or
 * idempotentHint; every other tool is held, since running a side-effecting tool twice is never
 * done unasked.
 */
export function chooseSuspension(method: InteractiveMethod, target: string, policy: SuspendPolicy, hints: ToolHints | undefined, unstable = false): Choice {
  const operator = operatorChoice(method, target, policy);
  if (operator !== undefined) return operator;
  if (unstable) return { mode: 'hold', why: 'its questions changed when it ran again' };
  if (method !== 'tools/call') return { mode: 'replay', why: `${method} only reads` };
  if (hints?.readOnlyHint === true) return { mode: 'replay', why: 'the tool is annotated readOnlyHint' };
  if (hints?.idempotentHint === true) return { mode: 'replay', why: 'the tool is annotated idempotentHint' };
  return { mode: 'hold', why: 'the tool is not annotated read-only or idempotent' };
}

export interface ModeInputs {
  method: InteractiveMethod;
  identity: { target: string };
  capabilities: FrontCapabilities;
  principal?: string;
}

export async function chooseMode(
  call: ModeInputs,
  policy: SuspendPolicy,
  toolHints: ((name: string, caps: FrontCapabilities, principal?: string) => Promise<ToolHints | undefined>) | undefined,
  log: Logger,
  unstable = false,
): Promise<Choice> {
  let hints: ToolHints | undefined;
  if (call.method === 'tools/call') {
    try {
      hints = await toolHints?.(call.identity.target, call.capabilities, call.principal);
    } catch (err) {
      log.debug('tool annotations unknown: the call is held', { tool: call.identity.target, error: (err as Error).message });
    }
  }
  const choice = chooseSuspension(call.method, call.identity.target, policy, hints, unstable);
  log.debug('suspend mode chosen', { method: call.method, target: call.identity.target, mode: choice.mode, why: choice.why });
  return choice;
}
