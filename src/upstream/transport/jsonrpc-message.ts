// The JSON-RPC 2.0 shape checks the upstream transports (Streamable HTTP, stdio) apply to what they receive.
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';

export function isRequest(m: unknown): m is JSONRPCRequest {
  return typeof m === 'object' && m !== null && 'method' in m && 'id' in m && (m as { id?: unknown }).id !== undefined;
}

/**
 * The JSON-RPC 2.0 envelope check. The SDK's own check is a zod union over every message type
 * and was the costliest step of a pass-through call here; the Client validates each request,
 * notification and result against its schema afterwards anyway.
 */
export function asMessage(value: unknown): JSONRPCMessage {
  const m = value as Record<string, unknown> | null;
  const ok =
    typeof m === 'object' &&
    m !== null &&
    !Array.isArray(m) &&
    m['jsonrpc'] === '2.0' &&
    (typeof m['method'] === 'string' ? m['id'] === undefined || isId(m['id']) : isId(m['id']) || (m['id'] === null && 'error' in m)) &&
    (typeof m['method'] === 'string' || 'result' in m || (typeof m['error'] === 'object' && m['error'] !== null));
  if (!ok) throw new Error(`not a JSON-RPC 2.0 message: ${JSON.stringify(value)?.slice(0, 200)}`);
  return m as unknown as JSONRPCMessage;
}

/** The message in `text` (JSON); one that is not JSON or not a message goes to `onError` and gives undefined. */
export function parseMessage(text: string, onError: ((error: Error) => void) | undefined): JSONRPCMessage | undefined {
  try {
    return asMessage(JSON.parse(text));
  } catch (err) {
    onError?.(err as Error);
    return undefined;
  }
}

function isId(id: unknown): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}
