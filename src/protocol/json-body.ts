// A request body as JSON-RPC over HTTP allows it: UTF-8 JSON (RFC 8259 §8.1), nested no deeper than
// the proxy handles safely. Every way a body can fail becomes an HTTP status and a JSON-RPC error,
// decided here once, before anything else reads the body.
import { JSONRPC } from './errors.js';

/**
 * How deep arrays and objects may nest. Real MCP messages stay far below it; a body nested
 * thousands deep would overflow the stack of code that walks it (schemas, fingerprints).
 */
export const MAX_JSON_DEPTH = 128;

export type DecodedBody = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

const fail = (status: number, code: number, message: string): DecodedBody => ({ ok: false, status, code, message });
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body's JSON value, or why it is refused. `contentType` is the request's header (may be absent). */
export function decodeJsonBody(bytes: Uint8Array, contentType: string | undefined): DecodedBody {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return fail(415, JSONRPC.INVALID_REQUEST, 'Content-Type must be application/json');
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return fail(415, JSONRPC.INVALID_REQUEST, `Content-Type charset must be utf-8 (JSON-RPC over HTTP is UTF-8), got '${charset}'`);
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return fail(400, JSONRPC.PARSE_ERROR, 'Parse error: the body is not valid UTF-8');
  }
  if (nestingExceeds(text, MAX_JSON_DEPTH)) {
    return fail(400, TOO_DEEP.code, TOO_DEEP.message);
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return fail(400, JSONRPC.PARSE_ERROR, `Parse error: ${(err as Error).message}`);
  }
}

/**
 * Whether arrays and objects in `text` nest deeper than `max`, brackets inside strings not
 * counted. Stops at the first level too deep; malformed text is left for JSON.parse to refuse.
 */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The same bound for a value already parsed (the stdio front gets messages parsed by the SDK); no recursion. */
export function valueNestingExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The JSON-RPC error for a message nested too deep. */
export const TOO_DEEP = { code: JSONRPC.INVALID_REQUEST, message: `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels` } as const;
