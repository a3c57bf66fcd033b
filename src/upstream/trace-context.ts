// W3C trace context on the legacy wire. The MCP convention carries it in a request's
// `params._meta` (`traceparent`, `tracestate`); over HTTP it also goes as the W3C headers, so an
// HTTP-instrumented legacy server continues the trace too. Pure.
import type { JsonObject } from '../protocol/json.js';

const KEYS = ['traceparent', 'tracestate'] as const;

/** `params` with the proxy's trace context in `_meta` (replacing the client's); as is when there is none. */
export function withTraceContext(params: JsonObject | undefined, carrier: { traceparent?: string; tracestate?: string }): JsonObject | undefined {
  if (carrier.traceparent === undefined) return params;
  const meta: JsonObject = { ...(params?.['_meta'] as JsonObject | undefined) };
  for (const k of KEYS) {
    const v = carrier[k];
    if (v === undefined) delete meta[k];
    else meta[k] = v;
  }
  return { ...params, _meta: meta };
}

/** The trace headers for one outgoing message: those of a single request's `_meta`. */
export function traceHeaders(message: unknown): Record<string, string> {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return {};
  const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  if (typeof meta !== 'object' || meta === null) return {};
  const out: Record<string, string> = {};
  for (const k of KEYS) {
    const v = meta[k];
    if (typeof v === 'string' && v.length <= 512) out[k] = v;
  }
  return out;
}
