// The live view: GET /dashboard serves one page (no build step, nothing fetched), and
// /dashboard/ws feeds it snapshots over WebSocket: upstreams and their health, interactive calls
// in flight, waiting interactions, recent rounds. Loopback only (there is no authentication yet):
// the configuration refuses --dashboard on another --host, and the socket is opened only by the
// page itself: a page on another loopback port is another origin, and may not read the live view.
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveInteractions } from '../audit/live.js';
import type { RouteTable } from '../routing/route.js';
import type { Logger } from '../telemetry/logger.js';
import { DASHBOARD_PAGE } from './dashboard-page.js';

export const DASHBOARD_PATH = '/dashboard';
const SOCKET_PATH = '/dashboard/ws';
/** Changes are pushed at most this often; health is refreshed this often while someone watches. */
const PUSH_MS = 100;
const HEALTH_MS = 2000;

export interface DashboardDeps {
  live: LiveInteractions;
  table: RouteTable;
  log: Logger;
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

/**
 * Whether an upgrade may open the socket: its Host names loopback (no DNS rebinding) and its Origin,
 * when it has one, is the origin the page is served from (`scheme`, the Host's name and port). A
 * browser always sends Origin; a request without one comes from a program, not from a web page.
 */
export function dashboardSocketAllowed(scheme: 'http' | 'https', host: string | undefined, origin: string | undefined): boolean {
  if (host === undefined || !LOOPBACK_HOST.test(host)) return false;
  if (origin === undefined) return true;
  try {
    return new URL(origin).origin === new URL(`${scheme}://${host}`).origin;
  } catch {
    return false;
  }
}

export function mountDashboard(app: Express): void {
  app.get(DASHBOARD_PATH, (_req, res) => {
    res.set('content-security-policy', "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:");
    res.type('html').send(DASHBOARD_PAGE);
  });
}

/** Serves the socket on `server` (of `scheme`); returns a function that closes every open socket. */
export function attachDashboardSocket(server: HttpServer, scheme: 'http' | 'https', deps: DashboardDeps): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  let health: Record<string, unknown> = {};
  let healthTimer: NodeJS.Timeout | undefined;
  let pushTimer: NodeJS.Timeout | undefined;

  const frame = () =>
    JSON.stringify({
      ...deps.live.snapshot(),
      upstreams: deps.table.all().map((r) => ({ name: r.name, era: r.era, default: r.name === deps.table.defaultName, status: health[r.name] ?? null })),
    });
  const pushAll = () => {
    pushTimer = undefined;
    const text = frame();
    for (const ws of wss.clients) ws.send(text);
  };
  const schedule = () => {
    if (wss.clients.size > 0) pushTimer ??= setTimeout(pushAll, PUSH_MS);
  };
  const refreshHealth = async () => {
    const entries = await Promise.all(
      deps.table.all().map(async (r) => [r.name, await r.status().catch((e: Error) => ({ ready: false, error: e.message }))] as const),
    );
    health = Object.fromEntries(entries);
    schedule();
  };
  const stopListening = deps.live.onChange(schedule);

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== SOCKET_PATH) return;
    if (!dashboardSocketAllowed(scheme, req.headers.host, req.headers.origin)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      ws.send(frame());
      if (!healthTimer) {
        void refreshHealth();
        healthTimer = setInterval(() => void refreshHealth(), HEALTH_MS);
      }
      ws.on('close', () => {
        if (wss.clients.size === 0 && healthTimer) {
          clearInterval(healthTimer);
          healthTimer = undefined;
        }
      });
    });
  });
  return () => {
    stopListening();
    if (healthTimer) clearInterval(healthTimer);
    if (pushTimer) clearTimeout(pushTimer);
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  };
}
