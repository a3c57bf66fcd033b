// The fronts' telemetry hook: every MCP request gets a FrontRequest (over HTTP tied to the node
// request, see frontRequestOf; on stdio found by its id), and when its response ends it is
// counted, timed, logged (access log) and its span ended. Over HTTP, error codes of
// bodies written with express's res.json (the proxy's own refusals) are read on the way out; the
// SDK's and the bridge's are noted where they are made (front/official-front.ts, front/wire-errors.ts).
// On stdio a request ends with the response carrying its id.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AccessLogFields, accessLogFields, accessLogWriter, createPrincipalHasher, type PrincipalHasher } from './access-log.js';
import { FrontRequest, headOfBody, headOfMessage, recordFrontRequest } from './front-request.js';
import { methodLabel, outcomeOf } from './labels.js';
import type { Logger } from './logger.js';
import type { ProxyMetrics } from './metrics.js';

export interface FrontTelemetryOptions {
  metrics: ProxyMetrics | undefined;
  /** Serve GET /metrics on the MCP listener (false when --metrics-port gives it its own). */
  metricsOnMainListener: boolean;
  accessLog: boolean;
  log: Logger;
  hashPrincipal?: PrincipalHasher;
}

/** What a read of `uri` on `upstream` is named by, from what is known (no listing): undefined when nothing declared matches. */
export type ReadNamer = (upstream: string, uri: string) => string | undefined;

type JsonResponse = ServerResponse & { json?: (body: unknown) => unknown };

export class FrontTelemetry {
  private readonly hash: PrincipalHasher;
  private readonly writeAccess: ((fields: AccessLogFields) => void) | undefined;
  private nameRead: ReadNamer = () => undefined;

  constructor(private readonly opts: FrontTelemetryOptions) {
    this.hash = opts.hashPrincipal ?? createPrincipalHasher();
    this.writeAccess = opts.accessLog ? accessLogWriter(opts.log) : undefined;
  }

  /** How reads are named in the access log and spans (set once the upstreams exist); by default by nothing. */
  nameReadsWith(namer: ReadNamer): void {
    this.nameRead = namer;
  }

  /** The metrics to serve at GET /metrics on the MCP listener, if they are served there. */
  get mainListenerMetrics(): ProxyMetrics | undefined {
    return this.opts.metricsOnMainListener ? this.opts.metrics : undefined;
  }

  /** Runs `serve` as one front request of `upstream`; its record is `frontRequestOf(req)` meanwhile. */
  track(
    upstream: string,
    era: 'legacy' | 'modern',
    req: IncomingMessage,
    res: ServerResponse,
    /** The body as the listener parsed it (undefined when there is none). */
    body: unknown,
    principal: string,
    serve: () => Promise<void>,
  ): Promise<void> {
    const request = new FrontRequest(upstream, principal, headOfBody(body, req.method ?? ''), req.headers);
    if (era === 'modern') request.mode = 'relay';
    const out = res as JsonResponse;
    const json = out.json;
    if (typeof json === 'function') {
      out.json = (body: unknown) => {
        const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
        if (typeof code === 'number') request.error(code);
        return json.call(out, body);
      };
    }
    res.once('close', () => this.finish(request, res.statusCode));
    recordFrontRequest(req, request);
    return serve();
  }

  /** The requests of one stdio connection to `upstream`. */
  stdio(upstream: string, principal: string): StdioRequests {
    const open = new Map<string | number, FrontRequest>();
    return {
      run: (message, deliver) => {
        if (message.id === undefined || typeof message.method !== 'string') return deliver();
        const request = new FrontRequest(upstream, principal, headOfMessage(message), {});
        open.set(message.id, request);
        return deliver();
      },
      recordOf: (id) => open.get(id),
      answered: (message) => {
        const m = message as { id?: string | number; result?: { resultType?: unknown }; error?: { code?: unknown } };
        const request = m.id === undefined ? undefined : open.get(m.id);
        if (!request || (m.result === undefined && m.error === undefined)) return;
        open.delete(m.id!);
        if (typeof m.error?.code === 'number') request.error(m.error.code);
        if (m.result?.resultType === 'input_required') request.inputRequired = true;
        this.finish(request, undefined);
      },
    };
  }

  private finish(request: FrontRequest, status: number | undefined): void {
    const uri = request.head.uri;
    if (uri !== undefined) request.named(this.nameRead(request.upstream, uri));
    const seconds = request.end(status);
    if (seconds === undefined) return;
    this.opts.metrics?.request(request.upstream, methodLabel(request.head.method), outcomeOf(status ?? 200, request.code, request.inputRequired), seconds);
    this.writeAccess?.(accessLogFields(request, status, seconds, this.hash));
  }
}

/** A stdio front's requests: each gets a FrontRequest, which its response ends. */
export interface StdioRequests {
  run<T>(message: { id?: string | number; method?: string; params?: Record<string, unknown> }, deliver: () => T): T;
  /** The record of the request with this id while it is open. */
  recordOf(id: string | number): FrontRequest | undefined;
  /** A message the front sends the client; a response ends its request. */
  answered(message: unknown): void;
}
