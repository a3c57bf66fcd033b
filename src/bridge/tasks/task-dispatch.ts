// Whether a first tools/call runs as a task, the legacy server's or the proxy's (task-wire.ts
// dispatchToolCall), decided in the bridge from what the upstream says of the tool (the ToolTasks
// port) and the operator's hosted-task policy. Only a server that runs tools as tasks has its
// tool's task support looked up; a `required` tool from a client without the extension is refused
// before anything reaches the legacy server. A retry continues a call, never starts a task.
import { legacyCapabilitiesFor } from '../../protocol/capabilities.js';
import type { FrontCall } from '../front-call.js';
import type { ToolTasks } from '../ports.js';
import { type HostedTaskPolicy, hostedSupport } from './hosted-task.js';
import { declaresTasks, dispatchToolCall, taskSupportOf, tasksRequired } from './task-wire.js';

export type CallTask = 'legacy' | 'hosted' | undefined;

export async function taskOf(front: FrontCall, tools: ToolTasks | undefined, policy: HostedTaskPolicy | undefined): Promise<CallTask> {
  if (front.method !== 'tools/call' || front.requestState !== undefined) return undefined;
  const name = String(front.params['name'] ?? '');
  const execution =
    tools !== undefined && (await tools.runsToolTasks())
      ? await tools.toolExecution(name, legacyCapabilitiesFor(front.capabilities), front.record, front.principal)
      : undefined;
  const dispatch = dispatchToolCall(taskSupportOf({ execution }), declaresTasks(front.capabilities), hostedSupport(policy, name));
  if (dispatch === 'refuse') throw tasksRequired(`tool '${name}' runs only as a task: it`);
  return dispatch === 'task' ? 'legacy' : dispatch === 'hosted' ? 'hosted' : undefined;
}
