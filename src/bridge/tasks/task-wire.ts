// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) against 2025-11-25 tasks: who gets a
// task, and how a legacy task's facts read on the 2026-07-28 wire. Pure.
//
// The differences that matter: 2026-07-28 results are flat (`resultType: "task"` beside the task's
// fields, no `task` wrapper), durations are `ttlMs` / `pollIntervalMs`, a finished task inlines its
// result (or error) on tasks/get instead of a tasks/result method, and a tool that ran but reported
// an error is `completed` with `isError` where 2025-11-25 servers often say `failed`.
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import type { FrontCapabilities } from '../../protocol/capabilities.js';
import type { InputRequest } from '../../protocol/input-requests.js';
import { isJsonObject, type JsonObject } from '../../protocol/json.js';
import type { WireError } from '../../protocol/errors.js';
import { JSONRPC, ProxyError } from '../../protocol/errors.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What a client that did not declare the extension is told it lacks (SEP-2575 "Missing Required Capabilities"). */
export const TASKS_REQUIREMENT = { extensions: { [TASKS_EXTENSION]: {} } } as const;

/** -32021 naming the extension, for `what` (a method, a tool) that needs it. */
export function tasksRequired(what: string): ProxyError {
  return new ProxyError(
    'capability_missing',
    'tasks_extension_undeclared',
    `${what} needs the ${TASKS_EXTENSION} extension, which the request's client capabilities do not declare`,
    {
      requiredCapabilities: TASKS_REQUIREMENT,
    },
  );
}

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
export type TaskSupport = 'forbidden' | 'optional' | 'required';

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}

/** Whether a request's client capabilities declare the tasks extension. */
export function declaresTasks(caps: FrontCapabilities | undefined): boolean {
  const extensions = caps?.['extensions'];
  return isJsonObject(extensions) && isJsonObject(extensions[TASKS_EXTENSION]);
}

/** Whether a legacy server's initialize capabilities accept task-augmented tools/call (2025-11-25). */
export function legacyRunsToolTasks(capabilities: JsonObject): boolean {
  const tasks = capabilities['tasks'];
  if (!isJsonObject(tasks) || !isJsonObject(tasks['requests'])) return false;
  const tools = tasks['requests']['tools'];
  return isJsonObject(tools) && isJsonObject(tools['call']);
}

/** A legacy tool's `execution.taskSupport`; absent or unknown is `forbidden`, as 2025-11-25 says. */
export function taskSupportOf(tool: JsonObject | undefined): TaskSupport {
  const execution = tool?.['execution'];
  const support = isJsonObject(execution) ? execution['taskSupport'] : undefined;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

/**
 * How a tools/call is run. The server decides, not the client (SEP-2663):
 * - `task`: the legacy server runs it as its own task (a tool with task support, from a request that
 *   declares the extension);
 * - `refuse`: a `required` tool without the extension gets -32021, since the legacy server would
 *   only answer it with an `isError` result;
 * - `hosted`: the proxy runs the plain legacy call as a task of its own (the operator chose the tool,
 *   `hosted` is its support then; the legacy server does not run it as a task, and the request
 *   declares the extension); a tool the operator hosts only as a task is refused as above;
 * - `call`: anything else runs as an ordinary call.
 */
export type ToolCallDispatch = 'call' | 'task' | 'hosted' | 'refuse';

export function dispatchToolCall(support: TaskSupport, declared: boolean, hosted: TaskSupport = 'forbidden'): ToolCallDispatch {
  const [by, as] = support !== 'forbidden' ? [support, 'task' as const] : [hosted, 'hosted' as const];
  if (by === 'forbidden') return 'call';
  if (declared) return as;
  return by === 'required' ? 'refuse' : 'call';
}

/** A 2025-11-25 Task as a legacy server reports it (CreateTaskResult's `task`, or tasks/get). */
export interface LegacyTask {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}

/** The `task` of a legacy CreateTaskResult, or undefined when `result` is not one. */
export function legacyTaskCreated(result: JsonObject): LegacyTask | undefined {
  return readLegacyTask(result['task']);
}

/** A legacy Task (tasks/get's result), or undefined when `value` is not one. */
export function readLegacyTask(value: unknown): LegacyTask | undefined {
  if (!isJsonObject(value)) return undefined;
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl, pollInterval } = value;
  if (typeof taskId !== 'string' || typeof status !== 'string' || typeof createdAt !== 'string') return undefined;
  return {
    taskId,
    status,
    createdAt,
    lastUpdatedAt: typeof lastUpdatedAt === 'string' ? lastUpdatedAt : createdAt,
    ttl: typeof ttl === 'number' && ttl > 0 ? ttl : null,
    ...(typeof statusMessage === 'string' ? { statusMessage } : {}),
    ...(typeof pollInterval === 'number' && pollInterval > 0 ? { pollInterval } : {}),
  };
}

/** What the proxy knows of one task at a moment: everything a tasks/get answer is built from. */
export interface TaskView {
  /** The id the client uses (sealed; see task-table.ts). */
  taskId: string;
  status: TaskStatus;
  statusMessage?: string | undefined;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number | undefined;
  /** Terminal `completed`: the tool's result. */
  result?: JsonObject | undefined;
  /** Terminal `failed`: the protocol error. */
  error?: WireError | undefined;
  /** `input_required`: the questions still unanswered, by key. */
  inputRequests?: Record<string, InputRequest> | undefined;
}

/** The fields of a 2026-07-28 Task, in integer milliseconds (the wire forbids fractions). */
function taskFields(view: TaskView): JsonObject {
  return {
    taskId: view.taskId,
    status: view.status,
    ...(view.statusMessage === undefined ? {} : { statusMessage: view.statusMessage }),
    createdAt: view.createdAt,
    lastUpdatedAt: view.lastUpdatedAt,
    ttlMs: view.ttlMs === null ? null : Math.max(1, Math.round(view.ttlMs)),
    ...(view.pollIntervalMs === undefined ? {} : { pollIntervalMs: Math.max(1, Math.round(view.pollIntervalMs)) }),
  };
}

/** A tools/call answered with a task: flat, and without the result, error or questions (those are tasks/get's). */
export function createTaskResult(view: TaskView): JsonObject {
  return { resultType: 'task', ...taskFields(view) };
}

/** A tasks/get answer (DetailedTask): the result or error inlined once terminal, the open questions while input_required. */
export function detailedTask(view: TaskView): JsonObject {
  const detail: JsonObject = { resultType: 'complete', ...taskFields(view) };
  if (view.status === 'completed' && view.result !== undefined) detail['result'] = view.result;
  if (view.status === 'failed' && view.error !== undefined) detail['error'] = view.error;
  if (view.status === 'input_required' && view.inputRequests !== undefined) detail['inputRequests'] = view.inputRequests;
  return detail;
}

/** A `notifications/tasks` params: the task as tasks/get would answer it, without the result's `resultType`. */
export function taskNotification(view: TaskView): JsonObject {
  const { resultType: _type, ...task } = detailedTask(view);
  return task;
}

/** The answer to tasks/update and tasks/cancel: an empty ack, also for a task already finished. */
export const TASK_ACK: JsonObject = Object.freeze({ resultType: 'complete' }) as JsonObject;

/**
 * A legacy tool result for the 2026-07-28 wire, as the tools/call would have answered it: a
 * CallToolResult with `resultType: "complete"` and `content`; the related-task `_meta` goes
 * (tasks/get's taskId says it).
 */
export function inlinedResult(result: JsonObject): JsonObject {
  const { resultType: _type, _meta: meta, ...rest } = result;
  const bare: JsonObject = { resultType: 'complete', ...rest };
  const inlined: JsonObject = Array.isArray(bare['content']) ? bare : { ...bare, content: [] };
  if (!isJsonObject(meta) || !(RELATED_TASK_META_KEY in meta)) return meta === undefined ? inlined : { ...inlined, _meta: meta };
  const { [RELATED_TASK_META_KEY]: _related, ...otherMeta } = meta;
  return Object.keys(otherMeta).length === 0 ? inlined : { ...inlined, _meta: otherMeta };
}

/** How a legacy task ended, read from its final status and what tasks/result gave. */
export type LegacyEnd = { status: 'completed'; result: JsonObject } | { status: 'failed'; error: WireError } | { status: 'cancelled' };

/**
 * - A result with `isError` is a tool error: `completed` on this side, whatever status the legacy
 *   server gave the task.
 * - A result that is a JSON-RPC error object (`{error: {code, message}}`, how a 2025-11-25 server
 *   built on the v1 SDK stores a protocol failure) is `failed` with that error.
 * - A tasks/result that answered with a JSON-RPC error is `failed` with it.
 * - `cancelled` stays cancelled; any other `failed` gets an internal error naming the status message.
 */
export function legacyEnd(status: string, outcome: { result: JsonObject } | { error: WireError }, statusMessage?: string): LegacyEnd {
  if (status === 'cancelled') return { status: 'cancelled' };
  if ('error' in outcome) return { status: 'failed', error: outcome.error };
  const result = outcome.result;
  if (result['isError'] === true) return { status: 'completed', result: inlinedResult(result) };
  const stored = result['error'];
  if (isJsonObject(stored) && typeof stored['code'] === 'number' && typeof stored['message'] === 'string') {
    return { status: 'failed', error: { code: stored['code'], message: stored['message'], ...('data' in stored ? { data: stored['data'] } : {}) } };
  }
  if (status === 'failed') {
    return { status: 'failed', error: { code: JSONRPC.INTERNAL_ERROR, message: statusMessage ?? 'the legacy server reported the task failed' } };
  }
  return { status: 'completed', result: inlinedResult(result) };
}
