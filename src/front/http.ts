// The 2026-07-28 Streamable HTTP listener: express + the official v2 handler. Responses are JSON
// unless the call streams notifications (progress, logs), which upgrades them to SSE. Interactive
// calls are not forced onto SSE: an SSE response commits to 200 before the outcome is known, and
// a -32021 must be a 400.
import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createMcpHandler, InMemoryServerEventBus, type McpHttpHandler } from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation } from '@modelcontextprotocol/express';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { legacyCapabilitiesFor, type FrontCapabilities } from '../bridge/capabilities.js';
import type { Logger } from '../telemetry/logger.js';
import type { Upstream } from '../upstream/upstream.js';
import { createChangeRelay } from './changes.js';
import { LegacyHttpSessions } from './legacy-http.js';
import { invalidRetryParams } from './retry-params.js';
import type { LegacyClients } from '../config/types.js';
import { withErrorStatuses } from './status.js';
import { createFrontServer, type FrontDeps } from './server-factory.js';

export const MCP_PATH = '/mcp';
const MAX_BODY = '4mb';

export interface HttpFront {
  url: string;
  close(): Promise<void>;
}

export interface HttpFrontOptions {
  host: string;
  port: number;
  /** `pass`: legacy clients get the transparent legacy path; `reject`: modern only. */
  legacyClients: LegacyClients;
  maxLegacySessions: number;
}

export async function startHttpFront(opts: HttpFrontOptions, deps: FrontDeps & { upstream: Upstream }): Promise<HttpFront> {
  const { host, port } = opts;
  const { log, upstream } = deps;
  const bus = new InMemoryServerEventBus((err) => log.warn('listen subscriber failed', { error: err.message }));
  const factory = async () => createFrontServer(await upstream.describe(), deps);
  const onerror = (err: Error) => log.debug('front request rejected', { error: err.message });
  const handler = createMcpHandler(factory, { legacy: 'reject', responseMode: 'auto', bus, onerror });
  const serve = toNodeHandler(withErrorStatuses(handler), { onerror: (err) => log.error('front adapter failed', { error: err.message }) });
  const stopRelay = upstream.onChange(createChangeRelay(handler.notify));
  const legacy = opts.legacyClients === 'pass' ? new LegacyHttpSessions(upstream, opts.maxLegacySessions, log) : undefined;

  const app = express();
  app.disable('x-powered-by');
  if (isLoopback(host)) app.use(localhostHostValidation(), localhostOriginValidation());
  else log.warn(`listening on ${host} without Host/Origin validation (DNS rebinding protection) or client authentication; put an authenticating reverse proxy in front`);
  app.use(MCP_PATH, express.json({ limit: MAX_BODY }), parseErrors);
  app.all(MCP_PATH, async (req: Request, res: Response) => {
    if (legacy && (await legacy.serve(req, res))) return;
    const body = req.body as { id?: unknown; method?: unknown; params?: Record<string, unknown> } | undefined;
    const invalid = invalidRetryParams(body);
    if (invalid) {
      res.status(200).json({ jsonrpc: '2.0', id: body?.id ?? null, error: invalid });
      return;
    }
    if (body?.method === 'subscriptions/listen') await holdResourceSubscriptions(body.params, res, upstream, log);
    if (body?.method === 'tools/call') await learnToolSchema(body.params, upstream, log);
    await serve(req, res, req.body);
  });

  const server: HttpServer = await new Promise((resolve, reject) => {
    // Express 5 also calls the listen callback with the error (EADDRINUSE, EACCES, ...).
    const s = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  // Long interactive calls must not be cut by Node's own request timeouts.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_PATH}`,
    async close() {
      stopRelay();
      await legacy?.closeAll();
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

/** express.json() answers malformed JSON with an HTML page; the MCP answer is a JSON-RPC parse error. */
function parseErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const e = err as { type?: string; status?: number; message?: string };
  if (e?.type === 'entity.parse.failed') {
    res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${e.message ?? 'invalid JSON'}` } });
    return;
  }
  if (e?.type === 'entity.too.large') {
    res.status(413).json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Request body larger than ${MAX_BODY}` } });
    return;
  }
  next(err);
}

/** Makes the called tool's schema known before dispatch, for the SDK's `Mcp-Param-*` check. */
async function learnToolSchema(params: Record<string, unknown> | undefined, upstream: Upstream, log: Logger): Promise<void> {
  const name = params?.['name'];
  if (typeof name !== 'string') return;
  const meta = params?.['_meta'] as Record<string, unknown> | undefined;
  const caps = meta?.['io.modelcontextprotocol/clientCapabilities'];
  try {
    await upstream.toolInputSchema(name, legacyCapabilitiesFor(typeof caps === 'object' && caps !== null ? (caps as FrontCapabilities) : {}));
  } catch (err) {
    // The call itself will meet the same failure and report it properly.
    log.debug('could not list legacy tools for header validation', { error: (err as Error).message });
  }
}

/**
 * The SDK's listen router does not expose the requested resource URIs, so the front reads them
 * here and keeps a legacy resources/subscribe open for as long as the listen stream is.
 */
async function holdResourceSubscriptions(params: Record<string, unknown> | undefined, res: Response, upstream: Upstream, log: Logger): Promise<void> {
  const filter = params?.['notifications'] as { resourceSubscriptions?: unknown } | undefined;
  const uris = Array.isArray(filter?.resourceSubscriptions) ? filter.resourceSubscriptions.filter((u): u is string => typeof u === 'string') : [];
  if (uris.length === 0) return;
  const info = await upstream.describe().catch(() => undefined);
  const resources = info?.capabilities['resources'] as { subscribe?: boolean } | undefined;
  if (!resources?.subscribe) return;
  const held: string[] = [];
  for (const uri of uris) {
    try {
      await upstream.subscribe(uri);
      held.push(uri);
    } catch (err) {
      log.warn('legacy resources/subscribe failed', { uri, error: (err as Error).message });
    }
  }
  res.once('close', () => {
    for (const uri of held) void upstream.unsubscribe(uri);
  });
}

export type { McpHttpHandler };
