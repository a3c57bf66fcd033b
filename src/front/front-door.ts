// Everything the HTTP listener puts in front of its routes, from the front-door settings: Host and
// Origin validation (DNS rebinding), CORS, client authentication (auth-gate.ts), and the server
// itself, plain HTTP or TLS.
import { createServer, type Server as HttpServer, type RequestListener } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { RequestHandler } from 'express';
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/express';
import { localhostAllowedHostnames, localhostAllowedOrigins } from '@modelcontextprotocol/server';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { isLoopback } from '../config/http-front.js';
import type { HttpFrontConfig } from '../config/types.js';
import type { RouteTable } from '../routing/route.js';
import type { Logger } from '../telemetry/logger.js';
import { createAuthGate } from './auth-gate.js';
import { cors } from './cors.js';
import { createTlsServer } from './tls.js';

export interface FrontDoor {
  middleware: RequestHandler[];
  scheme: 'http' | 'https';
  /** The server the app is served by (TLS when configured); not listening yet. */
  createServer(app: RequestListener): HttpServer | HttpsServer;
  /** Told the listening URL once the listener is up. */
  listening(url: string): void;
  /** Re-reads what can change without a restart (the TLS certificate); throws if it cannot. */
  reload(): void;
}

export function createFrontDoor(host: string, config: HttpFrontConfig, table: RouteTable, verifier: TokenVerifier, log: Logger): FrontDoor {
  const gate = createAuthGate(table, config.resourceUrl, verifier, log);
  let reloadTls: (() => void) | undefined;
  return {
    middleware: [...hostChecks(host, config, log), cors(config.corsOrigins), gate.middleware],
    scheme: config.tls ? 'https' : 'http',
    createServer(app) {
      if (!config.tls) return createServer(app);
      const tls = createTlsServer(config.tls, app);
      reloadTls = tls.reload;
      return tls.server;
    },
    listening: (url) => gate.listening(url),
    reload() {
      reloadTls?.();
    },
  };
}

/**
 * On loopback the Host and Origin headers must name loopback (or what --allowed-host and
 * --allowed-origin add); elsewhere they are checked only against what the operator lists. Origins
 * are compared by host name, as the official middleware does.
 */
function hostChecks(host: string, config: HttpFrontConfig, log: Logger): RequestHandler[] {
  const loopback = isLoopback(host);
  // The listening address names itself: 127.0.0.2 is loopback, and not among the SDK's names.
  const self = loopback ? [host.includes(':') && !host.startsWith('[') ? `[${host}]` : host] : [];
  const hosts = [...(loopback ? localhostAllowedHostnames() : []), ...self, ...config.allowedHosts];
  const extraOrigins = [...config.allowedOrigins, ...config.corsOrigins].map((o) => {
    const h = new URL(o).hostname;
    return h.includes(':') ? `[${h}]` : h;
  });
  const origins = [...(loopback ? localhostAllowedOrigins() : []), ...self, ...extraOrigins];
  const checks: RequestHandler[] = [];
  if (hosts.length > 0) checks.push(hostHeaderValidation(hosts));
  if (origins.length > 0) checks.push(originValidation(origins));
  if (!loopback && hosts.length === 0)
    log.warn(`listening on ${host} without Host validation (DNS rebinding protection); list the names clients use with --allowed-host`);
  return checks;
}
