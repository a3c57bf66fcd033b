// One front request as telemetry sees it: what it asked for, how it was served and how it ended.
// The front opens it (HTTP listener, stdio front) and hands it down explicitly: the official
// front's handlers, the bridge and the legacy session annotate it without knowing HTTP, and on its
// end it becomes an access-log line, metrics and the end of its span. Not AsyncLocalStorage: on
// Node 20 that runs a promise hook for every promise the process creates (docs/performance.md).
import { performance } from 'node:perf_hooks';
import type { SpanContext } from '@opentelemetry/api';
import { type ServeMode, methodLabel } from './labels.js';
import { clientCarrier, endSpan, linkRounds, startFrontSpan, type FrontSpan } from './spans.js';

/** Longest target (tool, prompt) kept for the access log and span attributes. */
const MAX_TARGET = 256;
/** Longest URI held for naming (protocol/resource-names.ts matches none longer). */
const MAX_URI = 4096;

/** What the first message of a body says about the request. */
export interface RequestHead {
  method: string;
  /** The tool or prompt; for resources/read, the template or resource the URI was named by at the end (see `named`). */
  target?: string;
  /** resources/read: the URI read, held only to name it by its declared template; never logged or traced as it is. */
  uri?: string;
  meta?: unknown;
}

export class FrontRequest {
  /** performance.now() at the start. */
  readonly startedAt = performance.now();
  private readonly startedAtEpochMs = Date.now();
  mode: ServeMode | undefined;
  /** The input_required round this request answers (0 for a first request). */
  round: number | undefined;
  /** The JSON-RPC error code of the answer, when it was an error. */
  code: number | undefined;
  inputRequired = false;
  /** Answered by the HTTP front's fast lane rather than the official front (front/fast-lane.ts). */
  fastLane = false;
  private frontSpan: FrontSpan | undefined;
  private ended = false;

  constructor(
    readonly upstream: string,
    readonly principal: string,
    private headOfRequest: RequestHead,
    private headers: Record<string, string | string[] | undefined> | undefined,
  ) {}

  get head(): RequestHead {
    return this.headOfRequest;
  }

  /**
   * The span, started on first use (once the head is known) with the request's start time. The
   * client's headers and `_meta` only say where the span continues the client's trace, so they
   * are let go once it has started.
   */
  get span(): FrontSpan {
    if (this.frontSpan) return this.frontSpan;
    const { method, target, meta } = this.headOfRequest;
    this.frontSpan = startFrontSpan(methodLabel(method), clientCarrier(this.headers ?? {}, meta), this.startedAtEpochMs, {
      'mcp.method.name': method,
      'mrtr.upstream': this.upstream,
      ...(target === undefined ? {} : { 'mrtr.target': target }),
    });
    this.headers = undefined;
    if (meta !== undefined) {
      const { meta: _meta, ...head } = this.headOfRequest;
      this.headOfRequest = head;
    }
    return this.frontSpan;
  }

  /** A read's URI named by its declared resource or template (undefined: by nothing); the URI is let go. */
  named(name: string | undefined): void {
    const { uri: _uri, ...head } = this.headOfRequest;
    this.headOfRequest = name === undefined ? head : { ...head, target: name };
    if (name !== undefined) this.frontSpan?.span.setAttribute('mrtr.target', name);
  }

  /** Marks this request as round `round` of an interaction whose first round's span is `first`. */
  resumed(first: SpanContext | undefined, round: number): void {
    this.round = round;
    linkRounds(this.span.span, first, round);
  }

  error(code: number): void {
    this.code ??= code;
  }

  /** The layer that served this request says how (the first to say wins). */
  served(mode: ServeMode): void {
    this.mode ??= mode;
  }

  /** Ends it once; returns the elapsed seconds, or undefined when it had already ended. */
  end(httpStatus: number | undefined): number | undefined {
    if (this.ended) return undefined;
    this.ended = true;
    endSpan(this.span.span, this.code, httpStatus);
    return (performance.now() - this.startedAt) / 1000;
  }
}

const ofMessage = new WeakMap<object, FrontRequest>();

/** Ties `request` to the HTTP request (or other carrier object) it records. */
export function recordFrontRequest(carrier: object, request: FrontRequest): void {
  ofMessage.set(carrier, request);
}

/** The front request recorded for `carrier`, if telemetry tracks it. */
export function frontRequestOf(carrier: object): FrontRequest | undefined {
  return ofMessage.get(carrier);
}

/**
 * The head of a raw JSON-RPC body, read without trusting it: a method, the target of an
 * interactive call (truncated), the `_meta`. A batch or an unreadable body gets a fixed name.
 */
export function readHead(raw: Buffer | undefined, httpMethod: string): RequestHead {
  if (raw === undefined || raw.length === 0) return headOfBody(undefined, httpMethod);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return headOfBody(undefined, httpMethod);
  }
  return headOfBody(body, httpMethod);
}

/** The head of a body the listener already parsed (undefined: none, or unreadable). */
export function headOfBody(body: unknown, httpMethod: string): RequestHead {
  if (httpMethod === 'GET') return { method: 'stream' };
  if (httpMethod === 'DELETE') return { method: 'delete' };
  if (body === undefined) return { method: 'unreadable' };
  return headOfMessage(body);
}

/** The head of a parsed JSON-RPC message (see readHead). */
export function headOfMessage(body: unknown): RequestHead {
  if (Array.isArray(body)) return { method: 'batch' };
  if (typeof body !== 'object' || body === null) return { method: 'unreadable' };
  const m = body as { method?: unknown; params?: Record<string, unknown> };
  if (typeof m.method !== 'string') return { method: 'result' in m || 'error' in m ? 'response' : 'unreadable' };
  const params = typeof m.params === 'object' && m.params !== null ? m.params : {};
  const target = m.method === 'tools/call' || m.method === 'prompts/get' ? params['name'] : undefined;
  // A URI may carry what the user typed (a template's variables): it is named at the end, never kept as it is.
  const uri = m.method === 'resources/read' ? params['uri'] : undefined;
  return {
    method: m.method.slice(0, MAX_TARGET),
    ...(typeof target === 'string' ? { target: target.slice(0, MAX_TARGET) } : {}),
    ...(typeof uri === 'string' && uri.length <= MAX_URI ? { uri } : {}),
    ...(params['_meta'] === undefined ? {} : { meta: params['_meta'] }),
  };
}
