// The HTTP listener: express, rebinding protection on loopback, health endpoints, and the MCP
// paths. `/mcp` is the default upstream, `/servers/NAME/mcp` each named one. Bodies are read raw so
// a modern upstream gets them byte for byte; legacy routes parse them.
import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { localhostHostValidation, localhostOriginValidation } from '@modelcontextprotocol/express';
import { errorBody, JSONRPC } from '../protocol/errors.js';
import type { FrontTelemetry } from '../telemetry/front-telemetry.js';
import { requestIdOf } from '../protocol/request-id.js';
import { systemClock } from '../runtime/clock.js';
import { DrainGate } from './drain.js';
import type { Logger } from '../telemetry/logger.js';
import { ANONYMOUS } from './server-factory.js';
import type { Route, RouteTable } from '../routing/route.js';
import { attachDashboardSocket, mountDashboard, type DashboardDeps } from './dashboard.js';

export const MCP_PATH = '/mcp';
const MAX_BODY = '4mb';

export interface HttpFront {
  url: string;
  /** Refuses new requests (503) and waits for running ones, each upstream up to its timeout; resolves with how many still run. */
  drain(timeoutMsOf: (upstream: string) => number): Promise<number>;
  close(): Promise<void>;
}

export async function startHttpListener(
  host: string,
  port: number,
  table: RouteTable,
  log: Logger,
  telemetry?: FrontTelemetry,
  dashboard?: DashboardDeps,
): Promise<HttpFront> {
  const app = express();
  app.disable('x-powered-by');
  if (isLoopback(host)) app.use(localhostHostValidation(), localhostOriginValidation());
  else
    log.warn(
      `listening on ${host} without Host/Origin validation (DNS rebinding protection) or client authentication; put an authenticating reverse proxy in front`,
    );

  const gate = new DrainGate();
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    if (gate.isDraining) return void res.status(503).json({ status: 'draining' });
    const entries = await Promise.all(table.all().map(async (r) => [r.name, { ...(await r.status()), default: r.name === table.defaultName }] as const));
    const upstreams = Object.fromEntries(entries);
    const ready = entries.length > 0 && entries.every(([, s]) => s.ready);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', upstreams });
  });

  if (dashboard) mountDashboard(app);
  const metrics = telemetry?.mainListenerMetrics;
  if (metrics)
    app.get('/metrics', async (_req, res) => {
      const { contentType, body } = await metrics.expose();
      res.type(contentType).send(body);
    });

  const raw = express.raw({ type: () => true, limit: MAX_BODY });
  app.all(MCP_PATH, raw, bodyErrors, (req: Request, res: Response) => serve(table.default, NO_DEFAULT, req, res, log, telemetry, gate));
  app.all('/servers/:name/mcp', raw, bodyErrors, (req: Request, res: Response) =>
    serve(table.get(String(req.params['name'])), `no upstream '${String(req.params['name'])}' is configured`, req, res, log, telemetry, gate),
  );

  const server: HttpServer = await new Promise((resolve, reject) => {
    // Express 5 also calls the listen callback with the error (EADDRINUSE, EACCES, ...).
    const s = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  // Long interactive calls must not be cut by Node's own request timeouts.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  const closeDashboard = dashboard ? attachDashboardSocket(server, dashboard) : () => {};
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_PATH}`,
    drain: (timeoutMsOf) => gate.drain(timeoutMsOf, systemClock),
    async close() {
      closeDashboard();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const NO_DEFAULT = 'no default upstream is configured (the configuration file has no `default:`); use /servers/NAME/mcp';

async function serve(
  route: Route | undefined,
  missing: string,
  req: Request,
  res: Response,
  log: Logger,
  telemetry: FrontTelemetry | undefined,
  gate: DrainGate,
): Promise<void> {
  const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
  if (!route) {
    res.status(404).json(errorBody(requestIdOf(raw), JSONRPC.METHOD_NOT_FOUND, missing));
    return;
  }
  if (!gate.admit(route.name, req, res, raw)) return;
  if (telemetry) await telemetry.track(route.name, route.era, req, res, raw, ANONYMOUS, () => handle(route, req, res, raw, log));
  else await handle(route, req, res, raw, log);
}

async function handle(route: Route, req: Request, res: Response, raw: Buffer | undefined, log: Logger): Promise<void> {
  try {
    await route.handle(req, res, raw);
  } catch (err) {
    log.error('route failed', { upstream: route.name, error: (err as Error).stack ?? String(err) });
    if (!res.headersSent) res.status(500).json(errorBody(null, JSONRPC.INTERNAL_ERROR, 'internal error in mrtr-proxy'));
    else res.destroy();
  }
}

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

function bodyErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const e = err as { type?: string };
  if (e?.type === 'entity.too.large') {
    res.status(413).json(errorBody(null, JSONRPC.INVALID_REQUEST, `Request body larger than ${MAX_BODY}`));
    return;
  }
  next(err);
}
