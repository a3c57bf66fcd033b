// The HTTP listener: express, rebinding protection on loopback, health endpoints, and the MCP
// paths. `/mcp` is the default upstream, `/servers/NAME/mcp` each named one. Bodies are read raw so
// a modern upstream gets them byte for byte; legacy routes parse them.
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { errorBody, JSONRPC } from '../protocol/errors.js';
import type { FrontTelemetry } from '../telemetry/front-telemetry.js';
import type { Logger } from '../telemetry/logger.js';
import { ANONYMOUS } from '../state/principal.js';
import { principalOfRequest } from './auth-gate.js';
import type { Route, RouteTable } from '../routing/route.js';
import { attachDashboardSocket, mountDashboard, type DashboardDeps } from './dashboard.js';
import type { FrontDoor } from './front-door.js';

export const MCP_PATH = '/mcp';
const MAX_BODY = '4mb';

export interface HttpFront {
  url: string;
  close(): Promise<void>;
}

export async function startHttpListener(
  host: string,
  port: number,
  table: RouteTable,
  log: Logger,
  door: FrontDoor,
  telemetry?: FrontTelemetry,
  dashboard?: DashboardDeps,
): Promise<HttpFront> {
  const app = express();
  app.disable('x-powered-by');
  // Host/Origin validation, CORS and authentication (see front-door.ts), before any route.
  app.use(door.middleware);

  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
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
  app.all(MCP_PATH, raw, bodyErrors, (req: Request, res: Response) => serve(table.default, 'the default upstream', req, res, log, telemetry));
  app.all('/servers/:name/mcp', raw, bodyErrors, (req: Request, res: Response) =>
    serve(table.get(String(req.params['name'])), `upstream '${String(req.params['name'])}'`, req, res, log, telemetry),
  );

  const server = door.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Long interactive calls must not be cut by Node's own request timeouts.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  const closeDashboard = dashboard ? attachDashboardSocket(server, dashboard) : () => {};
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${door.scheme}://${shownHost}:${address.port}${MCP_PATH}`;
  door.listening(url);
  return {
    url,
    async close() {
      closeDashboard();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function serve(route: Route | undefined, what: string, req: Request, res: Response, log: Logger, telemetry: FrontTelemetry | undefined): Promise<void> {
  if (!route) {
    res.status(404).json(errorBody(null, JSONRPC.METHOD_NOT_FOUND, `no ${what} is configured`));
    return;
  }
  const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
  if (telemetry) await telemetry.track(route.name, route.era, req, res, raw, principalOfRequest(req) ?? ANONYMOUS, () => handle(route, req, res, raw, log));
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

function bodyErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const e = err as { type?: string };
  if (e?.type === 'entity.too.large') {
    res.status(413).json(errorBody(null, JSONRPC.INVALID_REQUEST, `Request body larger than ${MAX_BODY}`));
    return;
  }
  next(err);
}
