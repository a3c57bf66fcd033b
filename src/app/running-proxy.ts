// Starts a resolved configuration: the upstreams (ProxyApp) and one front (HTTP or stdio), and
// gives back what runs it: reload, drain, close. Never exits and installs no signal handler; the
// CLI and the library API decide what a failure or a signal means.
import { randomUUID } from 'node:crypto';
import type { LiveInteractions } from '../audit/live.js';
import type { ProxyConfig } from '../config/types.js';
import { type HttpFront, startHttpListener } from '../front/http.js';
import { ANONYMOUS } from '../front/server-factory.js';
import { startStdioFront } from '../front/stdio.js';
import { systemClock } from '../runtime/clock.js';
import { createSealer } from '../state/seal.js';
import type { FrontTelemetry } from '../telemetry/front-telemetry.js';
import type { Logger } from '../telemetry/logger.js';
import type { AssemblyDeps } from './assembly.js';
import { ProxyApp } from './proxy-app.js';

/** What the CLI adds around the proxy: audit, dashboard, metrics and traces. The library passes none. */
export interface ProxyExtras {
  observerFor?: AssemblyDeps['observerFor'];
  metrics?: AssemblyDeps['metrics'];
  front?: FrontTelemetry;
  /** The live view of waiting interactions (--dashboard). */
  live?: LiveInteractions;
  /** Runs after the upstreams closed (flushes the audit, stops the metrics listener). */
  closeAfter?(): Promise<void>;
}

/** The proxy could not start; the message says why and what to do. */
export class StartError extends Error {
  override readonly name = 'StartError';
}

export interface RunningProxy {
  /** The 2026-07-28 endpoint, `http://HOST:PORT/mcp`; undefined for the stdio front. */
  readonly url: string | undefined;
  /** Resolves when the stdio front's client closed stdin (never for HTTP). */
  readonly ended: Promise<void>;
  /** Applies a new configuration: upstreams added, removed or reconfigured; listen and key changes wait for a restart. */
  reload(next: ProxyConfig): Promise<void>;
  /** /readyz 503 and new requests 503 at once; resolves when running requests finished or each upstream's drain timeout passed. */
  drain(): Promise<void>;
  /** Closes the front and every upstream; suspended interactions are ended. */
  close(): Promise<void>;
}

export async function startProxy(config: ProxyConfig, log: Logger, extras: ProxyExtras = {}): Promise<RunningProxy> {
  const instance = randomUUID();
  if (config.stateKey.generated) {
    log.warn('no --state-key or MRTR_STATE_KEY: generated a key for this process; retries must come back to this process');
  }
  if (config.defaultUpstream === undefined && config.upstreams.length > 1) {
    log.warn('no `default:` upstream in the configuration file: /mcp answers 404; clients use /servers/NAME/mcp', {
      upstreams: config.upstreams.map((u) => u.name),
    });
  }
  const app = new ProxyApp({
    sealer: createSealer(config.stateKey.bytes, systemClock.now),
    instance,
    legacyClients: config.legacyClients,
    log,
    clock: systemClock,
    ...(extras.observerFor ? { observerFor: extras.observerFor } : {}),
    ...(extras.metrics ? { metrics: extras.metrics } : {}),
  });
  const closeUpstreams = async () => {
    await app.close();
    await extras.closeAfter?.();
  };
  const { started } = await app.start(config);
  if (started === 0) {
    await closeUpstreams();
    throw new StartError('no upstream could be started (see the errors above)');
  }
  let current = config;
  let http: HttpFront | undefined;
  let front: { close(): Promise<void> };
  let ended: Promise<void> = new Promise<void>(() => {});
  if (config.stdio) {
    const parts = app.legacyParts(config.defaultUpstream);
    if (!parts) {
      await closeUpstreams();
      throw new StartError('--stdio serves a legacy upstream; the default upstream is not one');
    }
    const requests = extras.front?.stdio(config.defaultUpstream!, ANONYMOUS);
    const stdio = await startStdioFront({ ...parts, log }, config.legacyClients, ...(requests ? [requests] : []));
    front = stdio;
    ended = stdio.closed;
    log.info('serving 2026-07-28 on stdio', { instance });
  } else {
    try {
      http = await startHttpListener(
        config.host,
        config.port,
        app.table,
        log,
        extras.front,
        extras.live ? { live: extras.live, table: app.table, log } : undefined,
      );
    } catch (err) {
      await closeUpstreams();
      throw new StartError(listenFailure(config.host, config.port, err as NodeJS.ErrnoException));
    }
    front = http;
    if (extras.live) log.info(`dashboard at ${http.url.replace(/\/mcp$/, '/dashboard')}`);
    log.info(`listening on ${http.url}`, { url: http.url, instance, upstreams: app.table.all().map((r) => r.name) });
  }

  return {
    url: http?.url,
    ended,
    async reload(next) {
      if (next.host !== current.host || next.port !== current.port || next.stdio !== current.stdio)
        log.warn('listen address changes take effect after a restart');
      if (JSON.stringify(next.audit) !== JSON.stringify(current.audit)) log.warn('audit changes take effect after a restart');
      if (!next.stateKey.generated && Buffer.compare(next.stateKey.bytes, current.stateKey.bytes) !== 0)
        log.warn('a new state key takes effect after a restart');
      await app.apply(next);
      current = { ...next, host: current.host, port: current.port, stdio: current.stdio, stateKey: current.stateKey };
      log.info('configuration reloaded', { upstreams: app.table.all().map((r) => r.name) });
    },
    async drain() {
      if (!http) return;
      const timeouts = new Map(current.upstreams.map((u) => [u.name, u.drainTimeoutMs]));
      const fallback = Math.max(0, ...timeouts.values());
      log.info('draining: new requests get 503');
      const left = await http.drain((name) => timeouts.get(name) ?? fallback);
      if (left > 0) log.warn('drain timeout passed; closing with requests still running', { running: left });
      else log.info('drained: no request running');
    },
    async close() {
      await front.close();
      await closeUpstreams();
    },
  };
}

/** The listen error in words, with what to do for the usual causes. */
export function listenFailure(host: string, port: number, err: NodeJS.ErrnoException): string {
  const where = `cannot listen on ${host}:${port}`;
  if (err.code === 'EADDRINUSE')
    return `${where}: the port is in use (another mrtr-proxy, or another program); choose another with --port N (npm start: PORT=N npm start), or --port 0 for any free port`;
  if (err.code === 'EACCES') return `${where}: permission denied (ports below 1024 need privileges); choose a port of 1024 or above`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') return `${where}: no such local address; check --host`;
  return `${where}: ${err.message}`;
}
