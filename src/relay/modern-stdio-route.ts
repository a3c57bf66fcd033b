// A 2026-07-28 server the proxy starts over stdio, relayed to HTTP clients. 2026-07-28 stdio is
// stateless, so one child serves every client: request ids (and progress tokens) are rewritten
// to be unique on the pipe and mapped back; progress and listen notifications go to the stream of
// the request they belong to; a closed client stream becomes notifications/cancelled. The HTTP
// headers are checked against the body (the SDK's classifier, and Mcp-Name) before relaying.
import type { Request, Response } from 'express';
import { classifyInboundRequest, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { UpstreamConfig } from '../config/types.js';
import { proxyErrorBody } from '../protocol/encode-error.js';
import { errorBody, JSONRPC, ProxyError } from '../protocol/errors.js';
import type { Logger } from '../telemetry/logger.js';
import { MODERN_VERSION } from './modern-envelope.js';
import type { Route, RouteStatus } from '../routing/route.js';
import { DISCOVER } from '../upstream/probe.js';
import type { UpstreamResources } from '../upstream/resources.js';
import { createStdioTransport, type StdioTransport } from '../upstream/transport/stdio-transport.js';
import { checkNameHeader } from '../protocol/name-header.js';
import { statusFor } from '../protocol/http-status.js';

type Message = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

interface Pending {
  res: Response;
  clientId: string | number;
  progressToken?: unknown;
  streaming: boolean;
  listen: boolean;
}

const READY_TIMEOUT_MS = 3000;

export class ModernStdioRoute implements Route {
  readonly era = 'modern' as const;
  readonly name: string;
  private child: StdioTransport | undefined;
  private starting: Promise<StdioTransport> | undefined;
  private readonly pending = new Map<string, Pending>();
  /** Readiness probes in flight on the pipe. */
  private readonly probes = new Map<string, () => void>();
  private seq = 0;

  constructor(
    readonly config: UpstreamConfig,
    private readonly log: Logger,
    private readonly resources: UpstreamResources,
  ) {
    if (config.target.kind !== 'stdio') throw new Error(`upstream ${config.name}: not a stdio upstream`);
    this.name = config.name;
  }

  async start(): Promise<void> {
    const s = await this.status();
    if (!s.ready) throw new Error(s.error);
    this.log.debug('modern stdio server started: relaying as is', { upstream: this.name });
  }

  async handle(req: Request, res: Response): Promise<void> {
    if (req.method !== 'POST') {
      res
        .status(405)
        .set('allow', 'POST')
        .json(errorBody(null, JSONRPC.INVALID_REQUEST, 'Method not allowed.'));
      return;
    }
    // Read, checked (Content-Type, UTF-8, depth) and parsed once by the listener; a POST with no body has none.
    if (req.body === undefined) {
      res.status(400).json(errorBody(null, JSONRPC.PARSE_ERROR, 'Parse error: the request has no body'));
      return;
    }
    const body = req.body as Message;
    if (
      body.method === 'initialize' &&
      (body.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.['io.modelcontextprotocol/protocolVersion'] === undefined
    ) {
      const requested = (body.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      const message = `Unsupported protocol version: ${String(requested)}: the reverse bridge does not serve 2025-era clients in front of a 2026-07-28 stdio server yet (HTTP servers only)`;
      res.status(400).json(errorBody(body.id, JSONRPC.UNSUPPORTED_PROTOCOL_VERSION, message, { supported: [MODERN_VERSION], requested }));
      return;
    }
    const verdict = classifyInboundRequest({
      httpMethod: req.method,
      body,
      ...header(req, 'mcp-protocol-version', 'protocolVersionHeader'),
      ...header(req, 'mcp-method', 'mcpMethodHeader'),
      ...header(req, 'mcp-name', 'mcpNameHeader'),
    });
    if (verdict.kind === 'reject') {
      res.status(verdict.httpStatus).json(errorBody(body.id, verdict.code, verdict.message, verdict.data));
      return;
    }
    const mismatch = checkNameHeader(body.method, body.params, req.header('mcp-name'));
    if (mismatch) {
      res.status(400).json(errorBody(body.id, mismatch.code, mismatch.message));
      return;
    }
    if (verdict.kind === 'legacy') {
      res.status(400).json(
        errorBody(body.id, JSONRPC.UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version', {
          supported: ['2026-07-28'],
          requested: String(req.header('mcp-protocol-version') ?? 'none'),
        }),
      );
      return;
    }
    let child: StdioTransport;
    try {
      child = await this.ensureChild();
    } catch (err) {
      res
        .status(502)
        .json(
          proxyErrorBody(
            body.id,
            new ProxyError('upstream_unavailable', 'upstream_unreachable', `cannot start the upstream server ${this.name}: ${(err as Error).message}`),
          ),
        );
      return;
    }
    if (body.id === undefined) {
      await child.send(body as never);
      res.status(202).end();
      return;
    }
    const upId = `${this.name}-${++this.seq}`;
    const meta = body.params?.['_meta'] as Record<string, unknown> | undefined;
    const pending: Pending = { res, clientId: body.id, streaming: false, listen: body.method === 'subscriptions/listen' };
    let params = body.params;
    if (meta && 'progressToken' in meta) {
      pending.progressToken = meta['progressToken'];
      params = { ...params, _meta: { ...meta, progressToken: upId } };
    }
    this.pending.set(upId, pending);
    res.once('close', () => {
      // 2026-07-28: a closed response stream is a cancellation; on stdio that is a notification.
      if (this.pending.delete(upId))
        void child
          .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: upId, reason: 'the client closed the stream' } } as never)
          .catch((err: Error) =>
            this.log.debug('could not tell the modern stdio server of a cancellation: it is gone', { upstream: this.name, error: err.message }),
          );
    });
    await child.send({ ...body, id: upId, ...(params ? { params } : {}) } as never);
  }

  async status(): Promise<RouteStatus> {
    const base = { era: this.era, transport: this.config.target.kind };
    try {
      const child = await this.ensureChild();
      await this.ping(child);
      return { ...base, ready: true };
    } catch (err) {
      return { ...base, ready: false, error: (err as Error).message };
    }
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    await child?.close();
  }

  private ensureChild(): Promise<StdioTransport> {
    if (this.child) return Promise.resolve(this.child);
    if (!this.starting) {
      const target = this.config.target as Extract<UpstreamConfig['target'], { kind: 'stdio' }>;
      const child = createStdioTransport(target, this.log.child({ upstream: this.name }), this.resources);
      child.onmessage = (m) => this.fromServer(m as Message);
      child.onclose = () => this.onChildExit(child);
      child.onerror = (err) => this.log.debug('modern stdio upstream error', { upstream: this.name, error: err.message });
      this.starting = child.start().then(
        () => {
          this.child = child;
          this.starting = undefined;
          return child;
        },
        (err: unknown) => {
          this.starting = undefined;
          throw err;
        },
      );
    }
    return this.starting;
  }

  /** A server/discover round trip on the pipe (also how the probe found this server modern). */
  private ping(child: StdioTransport): Promise<void> {
    const upId = `${this.name}-ready-${++this.seq}`;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.probes.delete(upId);
        reject(new Error(`no answer to server/discover within ${READY_TIMEOUT_MS} ms`));
      }, READY_TIMEOUT_MS);
      this.probes.set(upId, () => {
        clearTimeout(timer);
        resolve();
      });
      child.send({ ...DISCOVER, id: upId } as never).catch(reject);
    });
  }
  private fromServer(m: Message): void {
    if (m.method === undefined && m.id !== undefined) {
      const probe = this.probes.get(String(m.id));
      if (probe) {
        this.probes.delete(String(m.id));
        return probe();
      }
      const p = this.pending.get(String(m.id));
      if (!p) return;
      this.pending.delete(String(m.id));
      return this.finish(p, { ...m, id: p.clientId });
    }
    if (m.method !== undefined && m.id !== undefined) {
      // 2026-07-28 servers send no requests; answer so the server is not left waiting.
      void this.child
        ?.send(errorBody(m.id, JSONRPC.METHOD_NOT_FOUND, 'clients of a 2026-07-28 server take no requests') as never)
        .catch((err: Error) => this.log.debug('could not refuse a modern stdio server request: it is gone', { upstream: this.name, error: err.message }));
      return;
    }
    const params = m.params ?? {};
    const meta = params['_meta'] as Record<string, unknown> | undefined;
    if (m.method === 'notifications/progress') {
      const p = this.pending.get(String(params['progressToken']));
      if (p) this.stream(p, { ...m, params: { ...params, progressToken: p.progressToken } });
      return;
    }
    const sub = meta?.[SUBSCRIPTION_ID_META_KEY];
    if (sub !== undefined) {
      const p = this.pending.get(String(sub));
      if (p) this.stream(p, { ...m, params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID_META_KEY]: p.clientId } } });
      return;
    }
    if (m.method === 'notifications/message') {
      // Nothing on the pipe names the request a log line belongs to: only an unambiguous one gets it.
      const calls = [...this.pending.values()].filter((p) => !p.listen);
      if (calls.length === 1) this.stream(calls[0]!, m);
    }
  }

  private stream(p: Pending, m: Message): void {
    if (!p.streaming) {
      p.streaming = true;
      p.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    }
    p.res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
  }

  private finish(p: Pending, m: Message): void {
    if (p.streaming) {
      p.res.end(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
      return;
    }
    const body = JSON.stringify(m);
    p.res
      .status(statusFor(body) ?? 200)
      .type('application/json')
      .end(body);
  }

  private onChildExit(child: StdioTransport): void {
    if (this.child === child) this.child = undefined;
    this.log.warn('modern stdio upstream exited; the next request starts it again', { upstream: this.name });
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      const exited = new ProxyError('upstream_failed', 'upstream_incomplete', `the upstream server ${this.name} exited during the request`);
      this.finish(p, { ...proxyErrorBody(p.clientId, exited), id: p.clientId });
    }
  }
}

function header(req: Request, name: string, key: string): Record<string, string> {
  const v = req.header(name);
  return v === undefined ? {} : { [key]: v };
}
