// Picks hold or replay for a new call: the tool's annotations (from tools/list, when the upstream
// can tell them) feed the pure rule in suspend-mode.ts, and the choice is logged with its reason.
import type { FrontCapabilities } from '../protocol/capabilities.js';
import type { InteractiveMethod } from '../protocol/methods.js';
import type { Logger } from '../telemetry/logger.js';
import { chooseSuspension, type Choice, type SuspendPolicy, type ToolHints } from './suspend-mode.js';

export interface ModeInputs {
  method: InteractiveMethod;
  identity: { target: string };
  capabilities: FrontCapabilities;
}

export async function chooseMode(
  call: ModeInputs,
  policy: SuspendPolicy,
  toolHints: ((name: string, caps: FrontCapabilities) => Promise<ToolHints | undefined>) | undefined,
  log: Logger,
): Promise<Choice> {
  let hints: ToolHints | undefined;
  if (call.method === 'tools/call') {
    try {
      hints = await toolHints?.(call.identity.target, call.capabilities);
    } catch (err) {
      log.debug('tool annotations unknown: the call is held', { tool: call.identity.target, error: (err as Error).message });
    }
  }
  const choice = chooseSuspension(call.method, call.identity.target, policy, hints);
  log.debug('suspend mode chosen', { method: call.method, target: call.identity.target, mode: choice.mode, why: choice.why });
  return choice;
}
