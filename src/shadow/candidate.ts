// The candidate as the shadow talks to it: plain 2026-07-28 JSON-RPC over HTTP, one POST per
// request, with the MCP headers and the `_meta` envelope (the capabilities the client declared to
// the primary). Answers come as JSON or as an SSE stream carrying the response. Nothing of the
// client's request but its method and target params is sent: no headers, no credentials, no trace.
import { isJsonObject, type JsonObject } from '../protocol/json.js';
import { TARGET_FIELD, isInteractiveMethod } from '../protocol/methods.js';
import type { HeaderSource } from '../upstream/client-credentials.js';
import { responseFromSse } from '../upstream/transport/sse-response.js';
import { VERSION } from '../version.js';
import type { SideOutcome } from './compare.js';

export const MODERN_VERSION = '2026-07-28';

/** The candidate could not be asked or did not answer in JSON-RPC (unreachable, timeout, HTTP error). */
export class CandidateFailure extends Error {
  override readonly name = 'CandidateFailure';
}

/** A candidate result that asks for input: the 2026-07-28 `InputRequiredResult`. */
export function isInputRequired(o: SideOutcome): o is { kind: 'result'; result: JsonObject & { inputRequests?: unknown; requestState?: unknown } } {
  return o.kind === 'result' && o.result['resultType'] === 'input_required';
}

export class CandidateClient {
  private seq = 0;

  constructor(
    private readonly url: URL,
    private readonly headers: HeaderSource,
  ) {}

  /** One request; `params` without `_meta` (the envelope is added here). Throws CandidateFailure. */
  async request(method: string, params: JsonObject, capabilities: JsonObject, signal: AbortSignal): Promise<SideOutcome> {
    const id = `shadow-${++this.seq}`;
    const body = {
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          'io.modelcontextprotocol/clientInfo': { name: 'mrtr-proxy-shadow', version: VERSION },
        },
      },
    };
    const headers: Record<string, string> = {
      ...(await this.headers()),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
    };
    if (isInteractiveMethod(method)) headers['mcp-name'] = nameHeader(String(params[TARGET_FIELD[method]] ?? ''));
    let res: Response;
    try {
      res = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    } catch (err) {
      throw new CandidateFailure(signal.aborted ? 'aborted' : `unreachable: ${(err as Error).message}`);
    }
    const type = res.headers.get('content-type') ?? '';
    const message = type.startsWith('text/event-stream') ? await fromStream(res, id, signal) : await fromJson(res, signal);
    if (!isJsonObject(message) || message['id'] !== id) throw new CandidateFailure(`HTTP ${res.status}: not a JSON-RPC response to the request`);
    const error = message['error'];
    if (isJsonObject(error) && typeof error['code'] === 'number') return { kind: 'error', code: error['code'] };
    if (isJsonObject(message['result'])) return { kind: 'result', result: message['result'] };
    throw new CandidateFailure(`HTTP ${res.status}: a JSON-RPC response without result or error`);
  }
}

/** The `Mcp-Name` value: as is when it is plain ASCII, else the `=?base64?…?=` form. */
function nameHeader(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

async function fromJson(res: Response, signal: AbortSignal): Promise<unknown> {
  try {
    return JSON.parse(await res.text());
  } catch {
    throw new CandidateFailure(signal.aborted ? 'aborted' : `HTTP ${res.status}: the body is not JSON`);
  }
}

async function fromStream(res: Response, id: string, signal: AbortSignal): Promise<unknown> {
  const read = await responseFromSse(res.body, id);
  if ('response' in read) return read.response;
  if (read.failure === 'broke') throw new CandidateFailure(signal.aborted ? 'aborted' : 'the SSE stream broke before the response');
  throw new CandidateFailure('the SSE stream ended without the response');
}
