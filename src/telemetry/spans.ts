// OpenTelemetry spans through @opentelemetry/api only: without a registered SDK (tracing.ts) every
// call here is the API's no-op. A front request is a SERVER span continuing the client's W3C trace
// (the `traceparent` header, else `_meta.traceparent`, the MCP convention); a legacy request is a
// CLIENT span under it whose context goes upstream in `_meta` (and, over HTTP, as headers).
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type SpanContext } from '@opentelemetry/api';

const TRACER = 'mrtr-proxy';

/** W3C trace context fields as headers or `_meta` keys carry them. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

function tracer() {
  return trace.getTracer(TRACER);
}

/** The client's trace context: the HTTP headers when they have one, else the request's `_meta`. */
export function clientCarrier(headers: Record<string, string | string[] | undefined>, meta: unknown): TraceCarrier {
  const pick = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const header = pick(headers['traceparent']);
  if (header !== undefined) return withState(header, pick(headers['tracestate']));
  const m = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
  const fromMeta = pick(m['traceparent']);
  return fromMeta === undefined ? {} : withState(fromMeta, pick(m['tracestate']));
}

function withState(traceparent: string, tracestate: string | undefined): TraceCarrier {
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

export interface FrontSpan {
  readonly span: Span;
  /** The context legacy requests of this front request are children of. */
  readonly context: Context;
}

export function startFrontSpan(name: string, carrier: TraceCarrier, startTime: number, attributes: Record<string, string>): FrontSpan {
  const parent = propagation.extract(ROOT_CONTEXT, carrier);
  const span = tracer().startSpan(name, { kind: SpanKind.SERVER, startTime, attributes }, parent);
  return new FrontSpanContext(parent, span);
}

/**
 * The context is made when a legacy request asks for it, not kept: requests the proxy answers
 * itself (discovery, ping, known lists) never ask, and a context costs an object and a Map.
 */
class FrontSpanContext implements FrontSpan {
  constructor(
    private readonly parent: Context,
    readonly span: Span,
  ) {}

  get context(): Context {
    return trace.setSpan(this.parent, this.span);
  }
}

export function endSpan(span: Span, errorCode: number | undefined, httpStatus: number | undefined): void {
  if (httpStatus !== undefined) span.setAttribute('http.response.status_code', httpStatus);
  if (errorCode !== undefined) {
    span.setAttribute('rpc.jsonrpc.error_code', errorCode);
    span.setStatus({ code: SpanStatusCode.ERROR, message: `JSON-RPC error ${errorCode}` });
  } else if (httpStatus !== undefined && httpStatus >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Links a later round's front span to the first round's: the rounds of one interaction. */
export function linkRounds(span: Span, first: SpanContext | undefined, round: number): void {
  span.setAttribute('mrtr.round', round);
  if (first && trace.isSpanContextValid(first)) span.addLink({ context: first, attributes: { 'mrtr.link': 'first round' } });
}

export interface LegacySpan {
  /** Trace context to send upstream; empty when tracing is off (the client's `_meta` then passes as is). */
  readonly carrier: TraceCarrier;
  end(error?: unknown): void;
}

/** A span that records nothing: nothing goes upstream, and ending it does nothing. */
const NOT_RECORDING: LegacySpan = Object.freeze({ carrier: Object.freeze({}), end: () => {} });

/** A CLIENT span for one legacy request under `parent` (a front request's context). */
export function startLegacySpan(parent: Context, upstream: string, method: string): LegacySpan {
  const span = tracer().startSpan(method, { kind: SpanKind.CLIENT, attributes: { 'mcp.method.name': method, 'mrtr.upstream': upstream } }, parent);
  // Tracing off (or not sampled): the API's span is a no-op, and a held call need not keep it.
  if (!span.isRecording()) return NOT_RECORDING;
  const carrier: TraceCarrier = {};
  propagation.inject(trace.setSpan(parent, span), carrier);
  return {
    carrier,
    end(error) {
      if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message ?? String(error) });
      span.end();
    },
  };
}
