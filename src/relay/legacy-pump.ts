// The transparent legacy path: a client that opens with `initialize` gets its own legacy session
// upstream, and every message is relayed as it is, both ways (requests, responses, notifications,
// server-initiated requests). Nothing is translated: both ends speak the same revision.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../telemetry/logger.js';
import type { ClientSessionPump, SessionMessage, ToClient } from './client-session-pump.js';

export class LegacyPump implements ClientSessionPump {
  /** Client requests the upstream has not answered yet, to route the server's messages. */
  private readonly inFlight = new Map<RequestId, string>();
  private closed = false;
  onclose?: () => void;

  private readonly upstream: Transport;
  private readonly release: () => void;

  /** `upstream`: the session's transport and its slot among --max-sessions, given back when the pump closes or cannot start. */
  constructor(
    upstream: { transport: Transport; release: () => void },
    private readonly toClient: ToClient,
    private readonly log: Logger,
  ) {
    this.upstream = upstream.transport;
    this.release = upstream.release;
  }

  async start(): Promise<void> {
    this.upstream.onmessage = (message) => this.fromServer(message as JSONRPCMessage);
    this.upstream.onclose = () => void this.close('the legacy server closed the connection');
    this.upstream.onerror = (err) => this.log.debug('legacy path upstream error', { error: err.message });
    try {
      await this.upstream.start();
    } catch (err) {
      this.closed = true;
      this.release();
      throw err;
    }
  }

  async fromClient(message: SessionMessage): Promise<void> {
    if (this.closed) return;
    const m = message as { id?: RequestId; method?: string };
    if (m.method !== undefined && m.id !== undefined) this.inFlight.set(m.id, m.method);
    await this.upstream.send(message as JSONRPCMessage);
  }

  async close(reason: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.log.info('legacy client session ended', { reason });
    const t = this.upstream as Transport & { terminateSession?: () => Promise<void> };
    await t.terminateSession?.().catch(() => {});
    await this.upstream.close().catch(() => {});
    this.release();
    this.onclose?.();
  }

  private fromServer(message: JSONRPCMessage): void {
    const m = message as { id?: RequestId; method?: string; result?: { protocolVersion?: unknown } };
    let related: RequestId | undefined;
    if (m.method === undefined && m.id !== undefined) {
      // A response: the initialize result fixes the revision the HTTP transport must announce.
      if (this.inFlight.get(m.id) === 'initialize' && typeof m.result?.protocolVersion === 'string') {
        this.upstream.setProtocolVersion?.(m.result.protocolVersion);
      }
      this.inFlight.delete(m.id);
      related = m.id;
    } else if (this.inFlight.size === 1) {
      // Nothing on the wire says which call a server request belongs to; with one call in flight
      // it is that one (its stream); otherwise it goes on the session's standalone stream.
      related = this.inFlight.keys().next().value;
    }
    this.toClient(message as SessionMessage, related).catch((err: Error) => this.log.warn('could not deliver to the legacy client', { error: err.message }));
  }
}
