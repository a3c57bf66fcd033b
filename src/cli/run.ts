// The running proxy, once the configuration is resolved: upstreams, the front (HTTP or stdio),
// reloads and shutdown. Loaded by main.ts after it has started the legacy children, so that
// loading all of this overlaps with their start-up.
import { randomUUID } from 'node:crypto';
import { ProxyApp } from '../app/proxy-app.js';
import { endPrestarted } from '../app/prestart.js';
import { createAudit } from '../audit/audit.js';
import { LiveInteractions } from '../audit/live.js';
import { fanOut } from '../audit/observers.js';
import type { resolveCli } from '../config/resolve.js';
import type { ProxyConfig } from '../config/types.js';
import { TokenVerifier } from '../auth/token-verifier.js';
import { createFrontDoor, type FrontDoor } from '../front/front-door.js';
import { startHttpListener } from '../front/http.js';
import { startStdioFront } from '../front/stdio.js';
import { systemClock } from '../runtime/clock.js';
import { forwardKey } from '../state/forward-auth.js';
import { type ConsumedLedger, MemoryLedger } from '../state/ledger.js';
import { localUserPrincipal } from '../state/principal.js';
import { createSealer } from '../state/seal.js';
import { createLogger } from '../telemetry/logger.js';
import { startObservability, type Observability } from './observability.js';

/** Legacy children get stdin EOF, then SIGTERM after 2 s, then SIGKILL after 4 s (v1 SDK). */
const SHUTDOWN_DEADLINE_MS = 10_000;

export async function run(config: ProxyConfig, reread: () => ReturnType<typeof resolveCli>): Promise<void> {
  const key = Buffer.from(config.stateKey.bytes);
  const log = createLogger(config.logLevel, [key.toString('base64url'), key.toString('base64'), key.toString('hex')]);
  const instance = randomUUID();
  if (config.stateKey.generated) {
    log.warn('no --state-key or MRTR_STATE_KEY: generated a key for this process; retries must come back to this process');
  }
  // The Redis client is loaded only when a state store is configured.
  const ledger: ConsumedLedger = config.stateStore
    ? new (await import('../state/redis-ledger.js')).RedisLedger(config.stateStore, log)
    : new MemoryLedger(systemClock);
  const audit = config.audit ? createAudit(config.audit, log, systemClock) : undefined;
  const live = config.dashboard ? new LiveInteractions(systemClock) : undefined;
  let observability: Observability;
  try {
    observability = await startObservability(config, log);
  } catch (err) {
    log.error(`cannot serve metrics on 127.0.0.1:${config.metricsPort}`, { error: (err as Error).message });
    await ledger.close();
    process.exit(1);
  }
  const app = new ProxyApp({
    sealer: createSealer(config.stateKey.generated ? [config.stateKey.bytes] : config.stateKey.keys, systemClock.now),
    ledger,
    ...(config.advertiseUrl === undefined ? {} : { advertiseUrl: config.advertiseUrl.origin }),
    ...(config.stateKey.generated ? {} : { forwardKeys: config.stateKey.keys.map(forwardKey) }),
    instance,
    legacyClients: config.legacyClients,
    log,
    clock: systemClock,
    observerFor: (name) => fanOut([...(audit ? [audit.recorderFor(name)] : []), ...(live ? [live.observerFor(name)] : [])]),
    metrics: observability.metrics,
  });
  const { started } = await app.start(config);
  endPrestarted();
  // Interactions the routes end while closing are still audited; then the file is flushed.
  const closeRoutes = async () => {
    await app.close();
    await ledger.close();
    await audit?.close();
    await observability.close();
  };
  if (started === 0) {
    await closeRoutes();
    process.exit(1);
  }

  let front: { close(): Promise<void> };
  let verifier: TokenVerifier | undefined;
  let door: FrontDoor | undefined;
  if (config.stdio) {
    const parts = app.legacyParts(config.defaultUpstream);
    if (!parts) {
      log.error('--stdio serves a legacy upstream; the default upstream is not one');
      await closeRoutes();
      process.exit(1);
    }
    const stdio = await startStdioFront(
      { ...parts, log, principal: localUserPrincipal() },
      config.legacyClients,
      observability.front.stdio(config.defaultUpstream!, localUserPrincipal()),
    );
    front = stdio;
    log.info('serving 2026-07-28 on stdio', { instance });
    // The client closing stdin ends the proxy (2026-07-28 stdio shutdown).
    void stdio.closed.then(() => stop('stdin closed'));
  } else {
    try {
      verifier = new TokenVerifier(systemClock.now, config.http.introspectionClient);
      warmIssuers(config, verifier, log);
      door = createFrontDoor(config.host, config.http, app.table, verifier, log);
      const http = await startHttpListener(
        config.host,
        config.port,
        app.table,
        log,
        door,
        observability.front,
        live ? { live, table: app.table, log } : undefined,
      );
      front = http;
      if (live) log.info(`dashboard at ${http.url.replace(/\/mcp$/, '/dashboard')}`);
      log.info(`listening on ${http.url}`, { url: http.url, instance, upstreams: app.table.all().map((r) => r.name) });
    } catch (err) {
      log.error(`cannot listen on ${config.host}:${config.port}`, { error: (err as Error).message });
      await closeRoutes();
      process.exit(1);
    }
  }

  process.on('SIGHUP', () => void reload());
  async function reload(): Promise<void> {
    try {
      door?.reload();
      if (config.http.tls) log.info('TLS certificate reloaded');
    } catch (err) {
      log.error('TLS certificate not reloaded; the running one stays', { error: (err as Error).message });
    }
    if (config.configFile === undefined) {
      if (config.http.tls) return;
      log.warn('SIGHUP ignored: no --config file to reload');
      return;
    }
    let next: ProxyConfig;
    try {
      const action = reread();
      if (action.action !== 'run') return;
      next = action.config;
    } catch (err) {
      log.error('configuration rejected; the running configuration stays', { error: (err as Error).message });
      return;
    }
    if (next.host !== config.host || next.port !== config.port || next.stdio !== config.stdio) log.warn('listen address changes take effect after a restart');
    if (JSON.stringify(next.audit) !== JSON.stringify(config.audit)) log.warn('audit changes take effect after a restart');
    warmIssuers(next, verifier, log);
    if (next.stateStore?.href !== config.stateStore?.href) log.warn('a changed --state-store takes effect after a restart');
    if (!next.stateKey.generated && !sameKeys(next.stateKey.keys, config.stateKey.keys)) log.warn('changed state keys take effect after a restart');
    await app.apply(next);
    log.info('configuration reloaded', { upstreams: app.table.all().map((r) => r.name) });
  }

  let stopping = false;
  async function stop(signal: string): Promise<void> {
    // A second signal (a terminal's Ctrl-C often reaches a wrapper and the proxy) changes nothing.
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    setTimeout(() => {
      log.error('shutdown took too long; exiting anyway');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    await front.close();
    await closeRoutes();
    process.exit(0);
  }
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

function sameKeys(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  return a.length === b.length && a.every((k, i) => Buffer.compare(k, b[i]!) === 0);
}

/** Discovers every configured issuer now, so a wrong --auth-issuer shows at start, not at the first request. */
function warmIssuers(config: ProxyConfig, verifier: TokenVerifier | undefined, log: ReturnType<typeof createLogger>): void {
  if (!verifier) return;
  const issuers = new Set(config.upstreams.flatMap((u) => (u.clientAuth ? [u.clientAuth.issuer] : [])));
  for (const issuer of issuers) {
    verifier.warm(issuer).then(
      () => log.info('authorization server discovered', { issuer }),
      (err: Error) => log.warn('authorization server not reachable yet; requests are refused with 503 until it is', { issuer, error: err.message }),
    );
  }
}
