// Legacy clients on the HTTP endpoint: an `initialize` without a 2026-07-28 envelope opens a
// legacy session (Mcp-Session-Id, GET stream, DELETE) served by the official sessionful transport,
// connected to what `connect` makes of it: its own legacy session upstream (CutoverSession: relaying
// everything but the cut-over items) or a 2026-07-28 server through the reverse bridge
// (ReverseBridgeSession).
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { encodeError, proxyErrorBody } from '../protocol/encode-error.js';
import { errorBody, LEGACY, ProxyError } from '../protocol/errors.js';
import type { Cancel, Clock } from '../clock.js';
import { frontRequestOf } from '../telemetry/front-request.js';
import type { Logger } from '../telemetry/logger.js';
import { startIdleSweeper } from '../upstream/pool/idle-sweep.js';
import type { ClientSessionPump, ToClient } from './client-session-pump.js';

/** Makes what a new session is connected to; throws (answered 503) when none can be had now. */
export type ConnectSession<P extends ClientSessionPump = ClientSessionPump> = (toClient: ToClient) => P;

interface Activity {
  /** Requests (and GET streams) of the session still open. */
  open: number;
  lastSeen: number;
}

export class LegacyClientSessions<P extends ClientSessionPump = ClientSessionPump> {
  private readonly sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  /** What each open session is connected to. */
  private readonly pumps = new Map<string, P>();
  private readonly activity = new Map<string, Activity>();
  /** Who opened each session (the auth gate's principal); only they may use it. */
  private readonly owners = new Map<string, string | undefined>();
  private stopSweeper: Cancel;

  /**
   * @param idleTtlMs a session with nothing open and no request for this long is closed: a legacy
   *   client that vanishes without DELETE must not keep its legacy session (a child process) alive.
   */
  constructor(
    private readonly connect: ConnectSession<P>,
    private idleTtlMs: number,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {
    this.stopSweeper = startIdleSweeper(clock, idleTtlMs, () => this.sweep());
  }

  /** A reload: the new idle TTL applies from now on. */
  setIdleTtl(idleTtlMs: number): void {
    if (idleTtlMs !== this.idleTtlMs) {
      this.stopSweeper();
      this.stopSweeper = startIdleSweeper(this.clock, idleTtlMs, () => this.sweep());
    }
    this.idleTtlMs = idleTtlMs;
  }

  /** Sessions open now. */
  get count(): number {
    return this.sessions.size;
  }

  /** What the open sessions are connected to. */
  connected(): Iterable<P> {
    return this.pumps.values();
  }

  /** Closes sessions idle past the TTL. */
  sweep(now = this.clock.now()): void {
    for (const [sid, a] of this.activity) {
      if (a.open > 0 || now - a.lastSeen < this.idleTtlMs) continue;
      this.log.info('legacy client session idle: closing it', { session: sid });
      this.activity.delete(sid);
      void this.sessions
        .get(sid)
        ?.close()
        .catch(() => {});
    }
  }

  private track(sid: string, res: Response): void {
    const a = this.activity.get(sid) ?? { open: 0, lastSeen: this.clock.now() };
    this.activity.set(sid, a);
    a.open++;
    res.once('close', () => {
      a.open--;
      a.lastSeen = this.clock.now();
    });
  }

  /** True when the request belongs on the legacy path (and has been served). */
  async serve(req: Request, res: Response): Promise<boolean> {
    const body = req.body as { method?: unknown; params?: { _meta?: Record<string, unknown> } } | undefined;
    const id = req.header('mcp-session-id');
    const enveloped = body?.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined;
    if (id !== undefined && !enveloped) {
      frontRequestOf(req)?.served('legacy-client');
      const session = this.sessions.get(id);
      // A session id is a handle, not a credential: another principal's request finds no session.
      if (session && this.owners.get(id) === principalOf(req)) {
        this.track(id, res);
        await session.handleRequest(req, res, req.body);
      }
      // The legacy rule for an unknown or ended session: 404, and the client initializes again.
      else res.status(404).json(errorBody(null, LEGACY.SESSION_NOT_FOUND, 'Session not found'));
      return true;
    }
    if (req.method !== 'POST' || body?.method !== 'initialize' || enveloped) return false;
    frontRequestOf(req)?.served('legacy-client');
    await this.open(req, res);
    return true;
  }

  async closeAll(): Promise<void> {
    this.stopSweeper();
    await Promise.all([...this.sessions.values()].map((t) => t.close().catch(() => {})));
  }

  private async open(req: Request, res: Response): Promise<void> {
    const reqId = (req.body as { id?: unknown }).id ?? null;
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        this.sessions.set(sid, transport);
        this.pumps.set(sid, pump);
        this.owners.set(sid, principalOf(req));
        this.track(sid, res);
        this.log.info('legacy client session opened', { session: sid });
      },
    });
    let pump: P;
    try {
      pump = this.connect((m, related) => transport.send(m as JSONRPCMessage, related === undefined ? undefined : { relatedRequestId: related }));
    } catch (err) {
      // Its own session counts among --max-sessions with the pool's: none is free.
      const { code, message, data } = encodeError(err, this.log);
      res.status(503).json(errorBody(reqId, code, message, data));
      return;
    }
    transport.onmessage = (m) =>
      void pump.fromClient(m as never).catch((err: Error) => this.log.warn('legacy path: upstream send failed', { error: err.message }));
    transport.onclose = () => {
      if (transport.sessionId) {
        this.sessions.delete(transport.sessionId);
        this.pumps.delete(transport.sessionId);
        this.activity.delete(transport.sessionId);
        this.owners.delete(transport.sessionId);
      }
      void pump.close('the client ended the session');
    };
    pump.onclose = () => void transport.close().catch(() => {});
    try {
      await pump.start();
    } catch (err) {
      this.log.warn('legacy path: cannot reach the legacy server', { error: (err as Error).message });
      res
        .status(502)
        .json(
          proxyErrorBody(reqId, new ProxyError('upstream_unavailable', 'upstream_unreachable', `cannot reach the legacy server: ${(err as Error).message}`)),
        );
      return;
    }
    await transport.start();
    await transport.handleRequest(req, res, req.body);
  }
}

/** The principal front/auth-gate.ts put on the request (`req.auth.extra.principal`); undefined without authentication. */
function principalOf(req: Request): string | undefined {
  const p = (req as Request & { auth?: { extra?: Record<string, unknown> } }).auth?.extra?.['principal'];
  return typeof p === 'string' ? p : undefined;
}
