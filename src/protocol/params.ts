// Shaping a front request's params for the legacy server: the 2026-07-28 envelope, inputResponses
// and requestState never go upstream, nor does the client's progressToken (the upstream SDK mints
// its own and the bridge maps progress back). Vendor `_meta` keys and trace context pass. Pure.
import type { JsonObject } from './json.js';

const ENVELOPE_PREFIX = 'io.modelcontextprotocol/';
const NOT_FORWARDED = new Set(['inputResponses', 'requestState']);

export function upstreamParams(params: JsonObject | undefined): JsonObject | undefined {
  if (params === undefined) return undefined;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(params)) {
    if (NOT_FORWARDED.has(k)) continue;
    if (k === '_meta') {
      const meta = upstreamMeta(v);
      if (meta) out['_meta'] = meta;
      continue;
    }
    out[k] = v;
  }
  return out;
}

function upstreamMeta(meta: unknown): JsonObject | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(meta)) {
    if (k === 'progressToken' || k.startsWith(ENVELOPE_PREFIX)) continue;
    out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The resource URIs a subscriptions/listen request asks to follow (its `notifications` filter). */
export function resourceSubscriptionUris(params: JsonObject | undefined): string[] {
  const filter = params?.['notifications'] as { resourceSubscriptions?: unknown } | undefined;
  return Array.isArray(filter?.resourceSubscriptions) ? filter.resourceSubscriptions.filter((u): u is string => typeof u === 'string') : [];
}
