// One request to a 2026-07-28 server over HTTP, relayed as received (body bytes, the MCP headers)
// and its response streamed back (JSON or SSE). Closing the client's stream closes the upstream
// one, which is 2026-07-28 cancellation. The client's credentials are not relayed; the configured
// upstream headers are sent instead. Used by a modern upstream's route and by a legacy upstream's
// cutover, for the items its migrated server serves.
import { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import { proxyErrorBody } from '../protocol/encode-error.js';
import { ProxyError } from '../protocol/errors.js';
import type { Logger } from '../telemetry/logger.js';
import type { HeaderSource } from '../upstream/client-credentials.js';

/** Request headers a 2026-07-28 server needs; everything else stays at the proxy. */
const RELAYED = /^(content-type|accept|mcp-protocol-version|mcp-method|mcp-name|mcp-param-.+|traceparent|tracestate|baggage|last-event-id)$/i;
/** Response headers worth passing back. */
const RETURNED = ['content-type', 'cache-control', 'x-accel-buffering', 'www-authenticate'];

export interface RelayTarget {
  /** The upstream's name, for logs and the error a client gets when it is unreachable. */
  name: string;
  url: URL;
  headers: HeaderSource;
}

export async function relayHttp(target: RelayTarget, req: Request, res: Response, raw: Buffer | undefined, log: Logger): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (RELAYED.test(k) && typeof v === 'string') headers[k] = v;
  const abort = new AbortController();
  res.once('close', () => abort.abort());
  let upstream: globalThis.Response;
  try {
    Object.assign(headers, await target.headers());
    upstream = await fetch(target.url, {
      method: req.method,
      headers,
      signal: abort.signal,
      ...(raw !== undefined && raw.length > 0 && req.method !== 'GET' ? { body: raw } : {}),
    });
  } catch (err) {
    if (abort.signal.aborted) return;
    log.warn('modern upstream unreachable', { upstream: target.name, error: (err as Error).message });
    res
      .status(502)
      .json(proxyErrorBody(null, new ProxyError('upstream_unavailable', 'upstream_unreachable', `the upstream server ${target.name} is unreachable`)));
    return;
  }
  res.status(upstream.status);
  for (const h of RETURNED) {
    const v = upstream.headers.get(h);
    if (v !== null) res.setHeader(h, v);
  }
  if (!upstream.body) {
    res.end();
    return;
  }
  Readable.fromWeb(upstream.body as never)
    .on('error', () => res.destroy())
    .pipe(res);
}
