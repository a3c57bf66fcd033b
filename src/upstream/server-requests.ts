// The legacy server's requests (elicitation/create, sampling/createMessage, roots/list, anything
// but ping) are answered from the transport's message hook, not through the v1 SDK's request
// handler machinery: Protocol._onrequest keeps, for every request still open, a promise chain, a
// context object full of closures and an AbortController, and a waiting user leaves one open for
// as long as they think. What the SDK did that matters is done here: the result or the
// error goes back on the transport; nothing is sent for a request the server withdrew
// (notifications/cancelled, whatever its id: the SDK ignored id 0) or once the session closed.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPC, errorBody, type ErrorBody } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/json.js';

export class ServerRequests {
  /** Each aborted once: withdrawn by the server, or the session closed. */
  private readonly open = new Map<RequestId, AbortController>();

  constructor(
    private readonly transport: Transport,
    private readonly onSendError: (err: Error) => void,
  ) {}

  /** Runs `handle` and sends what it settles with, unless the request was withdrawn meanwhile. */
  answer(request: JSONRPCRequest, handle: (withdrawn: AbortSignal) => Promise<JsonObject>): void {
    const id = request.id;
    const entry = new AbortController();
    this.open.set(id, entry);
    let settled: Promise<JsonObject>;
    try {
      settled = handle(entry.signal);
    } catch (err) {
      settled = Promise.reject(err);
    }
    // One reaction and no chain after it: this promise waits as long as the user thinks.
    settled.then(
      (result) => this.reply(id, entry, { jsonrpc: '2.0', id, result }),
      (err: unknown) => this.reply(id, entry, errorResponse(id, err) as JSONRPCMessage),
    );
  }

  /** Sends the answer unless the request was withdrawn; a later request may reuse the id, so only our own entry is deleted. */
  private reply(id: RequestId, entry: AbortController, message: JSONRPCMessage): void {
    if (this.open.get(id) === entry) this.open.delete(id);
    if (entry.signal.aborted) return;
    let sent: Promise<void>;
    try {
      sent = this.transport.send(message);
    } catch (err) {
      sent = Promise.reject(err);
    }
    sent.catch((err: unknown) => this.onSendError(new Error(`Failed to send response: ${err}`)));
  }

  /** The server withdrew request `id` (notifications/cancelled): its answer will not be sent. */
  withdraw(id: RequestId, reason: unknown): void {
    this.open.get(id)?.abort(reason);
  }

  /** The session closed: every open request is withdrawn. */
  withdrawAll(): void {
    for (const entry of this.open.values()) entry.abort();
    this.open.clear();
  }
}

/** The error response for what a handler threw, built as the SDK built it. */
export function errorResponse(id: RequestId, err: unknown): ErrorBody {
  const e = (err ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  const code = Number.isSafeInteger(e.code) ? (e.code as number) : JSONRPC.INTERNAL_ERROR;
  return errorBody(id, code, typeof e.message === 'string' ? e.message : 'Internal error', e.data);
}
