// One 2026-07-28 request over Streamable HTTP, as the reverse bridge makes it: a POST with the MCP
// headers (Mcp-Method, Mcp-Name, MCP-Protocol-Version) and the configured upstream credentials,
// answered in JSON or on an SSE stream whose notifications (logs, progress) are handed on as they
// come. Aborting the signal closes the stream, which is 2026-07-28 cancellation.
import { isInteractiveMethod, TARGET_FIELD } from '../protocol/methods.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';
import type { HeaderSource } from '../upstream/client-credentials.js';
import { responseFromSse } from '../upstream/transport/sse-response.js';
import { MODERN_VERSION } from './modern-envelope.js';

/**
 * The upstream gave no JSON-RPC response to the request, and why in the proxy's reasons: it could
 * not be reached, it broke off (a cut stream, a 5xx: worth a retry), or it answered something that
 * is not a response to the request (a retry would get the same).
 */
export class ExchangeFailure extends Error {
  override readonly name = 'ExchangeFailure';
  constructor(
    message: string,
    readonly reason: 'upstream_unreachable' | 'upstream_incomplete' | 'upstream_invalid',
  ) {
    super(message);
  }
}

/** An HTTP answer that is not a response: a server error may pass, anything else would repeat. */
const notAResponse = (status: number) => (status >= 500 ? 'upstream_incomplete' : 'upstream_invalid');

export interface ModernRequest {
  id: string;
  method: string;
  /** The params with their `_meta` envelope. */
  params: JsonObject;
}

export async function exchange(
  url: URL,
  credentials: HeaderSource,
  request: ModernRequest,
  signal: AbortSignal,
  onNotification: (message: JsonObject) => void,
): Promise<JsonObject> {
  const headers: Record<string, string> = {
    ...(await credentials()),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': request.method,
  };
  if (isInteractiveMethod(request.method)) headers['mcp-name'] = nameHeader(String(request.params[TARGET_FIELD[request.method]] ?? ''));
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...request }), signal });
  } catch (err) {
    throw new ExchangeFailure(signal.aborted ? 'aborted' : `the upstream is unreachable: ${(err as Error).message}`, 'upstream_unreachable');
  }
  const type = res.headers.get('content-type') ?? '';
  const message = type.startsWith('text/event-stream') ? await fromStream(res, request.id, signal, onNotification) : await fromJson(res, signal);
  if (!isJsonObject(message) || message['id'] !== request.id)
    throw new ExchangeFailure(`HTTP ${res.status}: not a JSON-RPC response to the request`, notAResponse(res.status));
  return message;
}

/** The `Mcp-Name` value: as is when it is plain ASCII, else the `=?base64?…?=` form. */
function nameHeader(value: string): string {
  return /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith('=?')
    ? value
    : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

async function fromJson(res: Response, signal: AbortSignal): Promise<unknown> {
  try {
    return JSON.parse(await res.text());
  } catch {
    throw new ExchangeFailure(signal.aborted ? 'aborted' : `HTTP ${res.status}: the body is not JSON`, notAResponse(res.status));
  }
}

async function fromStream(res: Response, id: string, signal: AbortSignal, onNotification: (message: JsonObject) => void): Promise<unknown> {
  const read = await responseFromSse(res.body, id, onNotification);
  if ('response' in read) return read.response;
  if (signal.aborted) throw new ExchangeFailure('aborted', 'upstream_incomplete');
  throw new ExchangeFailure(
    read.failure === 'broke' ? 'the SSE stream broke before the response' : 'the SSE stream ended without the response',
    'upstream_incomplete',
  );
}
