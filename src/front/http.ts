// The HTTP listener: express, rebinding protection on loopback, health endpoints, and the MCP
// paths. `/mcp` is the default upstream, `/servers/NAME/mcp` each named one. Each body is read and
// parsed once, within its route's limits (body-reader.ts); a relaying route also gets the bytes.
// Anything else, unknown paths included, gets a JSON-RPC-shaped error, never express's HTML.
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { internalError } from '../protocol/encode-error.js';
import { errorBody, JSONRPC, requestIdOf } from '../protocol/errors.js';
import type { FrontTelemetry } from '../telemetry/front-telemetry.js';
import { limits } from '../config/file-config.js';
import { systemClock, type Clock } from '../clock.js';
import { DrainGate } from './drain.js';
import type { Logger } from '../telemetry/logger.js';
import { ANONYMOUS } from '../state/principal.js';
import { principalOfRequest } from './auth-gate.js';
import type { Route, RouteTable } from '../routing/route.js';
import type { DashboardDeps } from './dashboard.js';
import type { FrontDoor } from './front-door.js';
import { type BodyResult, InflightBytes, readBody } from './body-reader.js';
import type { ListenSocket } from './listen-socket.js';

export const MCP_PATH = '/mcp';

export interface HttpFront {
  url: string;
  /** Refuses new requests (503) and waits for running ones, each upstream up to its timeout; resolves with how many still run. */
  drain(timeoutMsOf: (upstream: string) => number): Promise<number>;
  close(): Promise<void>;
}

export async function startHttpListener(
  socket: ListenSocket,
  table: RouteTable,
  log: Logger,
  door: FrontDoor,
  telemetry?: FrontTelemetry,
  dashboard?: DashboardDeps,
  clock: Clock = systemClock,
): Promise<HttpFront> {
  const app = express();
  app.disable('x-powered-by');
  // Host/Origin validation, CORS and authentication (see front-door.ts), before any route.
  app.use(door.middleware);

  const gate = new DrainGate();
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    if (gate.isDraining) return void res.status(503).json({ status: 'draining' });
    const entries = await Promise.all(table.all().map(async (r) => [r.name, { ...(await r.status()), default: r.name === table.defaultName }] as const));
    const upstreams = Object.fromEntries(entries);
    const ready = entries.length > 0 && entries.every(([, s]) => s.ready);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', upstreams });
  });

  // The dashboard (and its WebSocket library) is loaded only when it is on.
  const live = dashboard ? await import('./dashboard.js') : undefined;
  live?.mountDashboard(app);
  const metrics = telemetry?.mainListenerMetrics;
  if (metrics)
    app.get('/metrics', async (_req, res) => {
      const { contentType, body } = await metrics.expose();
      res.type(contentType).send(body);
    });

  const inflight = new Map<string, InflightBytes>();
  const withBody = async (route: Route | undefined, missing: string, req: Request, res: Response) => {
    const budget = inflight.get(route?.name ?? '') ?? new InflightBytes();
    inflight.set(route?.name ?? '', budget);
    // With no route the body is still read (within the default limits), for the request's id.
    const { result, release } = readBody(req, route?.config ?? NO_ROUTE_LIMITS, budget, clock);
    res.once('close', release);
    let body: BodyResult | undefined = await result;
    if (!body.ok) {
      // A body that stalled or was cut off leaves the connection unusable: answer, then close it.
      if (body.close) res.set('connection', 'close').once('finish', () => req.socket.destroySoon());
      res.status(body.status).json(errorBody(null, body.code, body.message));
      return;
    }
    req.body = body.parsed;
    if (!route) {
      res.status(404).json(errorBody(requestIdOf(req.body), JSONRPC.METHOD_NOT_FOUND, missing));
      return;
    }
    if (!gate.admit(route.name, req, res, req.body)) return;
    const raw = route.relaysRawBody ? body.raw : undefined;
    // Only a relaying route keeps the bytes; for the others they may go while the call runs.
    body = undefined;
    await serve(route, req, res, raw, log, telemetry);
  };
  app.all(MCP_PATH, (req: Request, res: Response) => withBody(table.default, NO_DEFAULT, req, res));
  app.all('/servers/:name/mcp', (req: Request, res: Response) =>
    withBody(table.get(String(req.params['name'])), `no upstream '${String(req.params['name'])}' is configured`, req, res),
  );
  app.use((req: Request, res: Response) => {
    res.status(404).json(errorBody(null, JSONRPC.METHOD_NOT_FOUND, `no MCP endpoint at ${req.method} ${req.path}: use ${MCP_PATH} or /servers/NAME/mcp`));
  });
  const answerError = (err: unknown, _req: Request, res: Response) => {
    const status = (err as { status?: number }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json(errorBody(null, JSONRPC.INVALID_REQUEST, `Invalid Request: ${(err as Error).message}`));
      return;
    }
    const wire = internalError(err, log, 'request failed');
    if (!res.headersSent) res.status(500).json(errorBody(null, wire.code, wire.message, wire.data));
    else res.destroy();
  };
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => answerError(err, req, res));

  const server = door.createServer(app);
  // The socket was bound before the proxy started anything (listen-socket.ts): serve on it.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket.server, () => {
      server.off('error', reject);
      resolve();
    });
  });
  socket.handOver((early) => server.emit('connection', early));
  // Long interactive calls must not be cut by Node's own request timeouts.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  const closeDashboard = live && dashboard ? live.attachDashboardSocket(server, door.scheme, dashboard) : () => {};
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${door.scheme}://${shownHost}:${address.port}${MCP_PATH}`;
  door.listening(url);
  return {
    url,
    drain: (timeoutMsOf) => gate.drain(timeoutMsOf, clock),
    async close() {
      closeDashboard();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const NO_DEFAULT = 'no default upstream is configured (the configuration file has no `default:`); use /servers/NAME/mcp';
const NO_ROUTE_LIMITS = limits({}, 'network');

async function serve(route: Route, req: Request, res: Response, raw: Buffer | undefined, log: Logger, telemetry: FrontTelemetry | undefined): Promise<void> {
  if (telemetry)
    await telemetry.track(route.name, route.era, req, res, req.body, principalOfRequest(req) ?? ANONYMOUS, () => handle(route, req, res, raw, log));
  else await handle(route, req, res, raw, log);
}

async function handle(route: Route, req: Request, res: Response, raw: Buffer | undefined, log: Logger): Promise<void> {
  try {
    await route.handle(req, res, raw);
  } catch (err) {
    const wire = internalError(err, log.child({ upstream: route.name }), 'route failed');
    if (!res.headersSent) res.status(500).json(errorBody(null, wire.code, wire.message, wire.data));
    else res.destroy();
  }
}
