// The `Mcp-Name` header check (2026-07-28 Streamable HTTP) for relayed requests. The SDK runs the
// same check inside its own handler but does not export it; a stdio relay has no SDK handler in the
// path, so this is its copy: the header must be present for tools/call, prompts/get and
// resources/read and equal the body's name or URI, after decoding the `=?base64?...?=` form.
// checkTaskNameHeader is the same check for the tasks extension's methods, made before the SDK's so
// that a mismatch never echoes an attacker's (possibly megabyte) task id back. Pure.
import { JSONRPC, type WireError } from './errors.js';
import { isInteractiveMethod, TARGET_FIELD } from './methods.js';

/** The tasks extension's methods whose `Mcp-Name` carries `params.taskId`. */
const TASK_METHODS: ReadonlySet<unknown> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);
/** How much of a client's value an error may quote. */
const QUOTED = 24;

/** The start of a client's value, for an error message: never the whole of something the client chose the size of. */
export function quoted(value: unknown): string {
  const text = String(value);
  return text.length <= QUOTED ? text : `${text.slice(0, QUOTED)}…`;
}

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

export type HeaderMismatch = WireError & { code: typeof JSONRPC.HEADER_MISMATCH };

const mismatch = (message: string): HeaderMismatch => ({ code: JSONRPC.HEADER_MISMATCH, message: `Header mismatch: ${message}` });

export function checkNameHeader(method: unknown, params: unknown, header: string | undefined): HeaderMismatch | undefined {
  if (!isInteractiveMethod(method)) return undefined;
  const expected = (params as Record<string, unknown> | undefined)?.[TARGET_FIELD[method]];
  if (header === undefined) return mismatch(`Mcp-Name header is required for ${method}`);
  const value = decode(header.trim());
  if (value === undefined) return mismatch('Mcp-Name header has an invalid Base64 value');
  if (value !== expected) return mismatch(`Mcp-Name header value '${quoted(value)}' does not match body value '${quoted(expected)}'`);
  return undefined;
}

/**
 * tasks/get, tasks/update and tasks/cancel: a present `Mcp-Name` must equal `params.taskId` (the
 * SDK requires it when the body names a task); undefined when it does, or for any other method.
 */
export function checkTaskNameHeader(method: unknown, params: unknown, header: string | undefined): HeaderMismatch | undefined {
  if (!TASK_METHODS.has(method)) return undefined;
  const expected = (params as Record<string, unknown> | undefined)?.['taskId'];
  if (typeof expected !== 'string') return undefined;
  if (header === undefined) return mismatch(`Mcp-Name header is required for ${String(method)}`);
  const value = decode(header.trim());
  if (value === undefined) return mismatch('Mcp-Name header has an invalid Base64 value');
  if (value !== expected) return mismatch(`Mcp-Name header value '${quoted(value)}' does not match params.taskId '${quoted(expected)}'`);
  return undefined;
}

function decode(value: string): string | undefined {
  const m = SENTINEL.exec(value);
  if (!m) return value;
  const bytes = Buffer.from(m[1]!, 'base64');
  // Reject what Buffer would silently accept: the round trip must give back the same text.
  if (bytes.toString('base64') !== m[1]) return undefined;
  return bytes.toString('utf8');
}
