// Starts a resolved configuration: the replay ledger (--state-store), audit, dashboard, metrics and
// the access log; the upstreams (ProxyApp, with the state keys, --advertise-url and forwarding
// between instances); and one front (HTTP behind its front door, or stdio). Gives back what runs it:
// reload, drain, close. Never exits and installs no signal handler; the CLI and the library API
// decide what a failure or a signal means.
import { randomUUID } from 'node:crypto';
import { createAudit } from '../audit/audit.js';
import { LiveInteractions } from '../audit/live.js';
import { fanOut } from '../audit/observers.js';
import { ShadowComparisons } from '../shadow/shadow.js';
import { TokenVerifier } from '../auth/token-verifier.js';
import type { ProxyConfig } from '../config/types.js';
import { createFrontDoor, type FrontDoor } from '../front/front-door.js';
import { type HttpFront, startHttpListener } from '../front/http.js';
import { bindListenSocket, type ListenSocket, listenFailure } from '../front/listen-socket.js';
import { startStdioFront } from '../front/stdio.js';
import { systemClock } from '../clock.js';
import { forwardKey } from '../state/forward-auth.js';
import { type ConsumedLedger, MemoryLedger } from '../state/ledger.js';
import type { TaskStore } from '../state/task-store.js';
import { localUserPrincipal } from '../state/principal.js';
import { createSealer } from '../state/seal.js';
import { childExposures, systemExposureFacts } from './child-exposure.js';
import type { Logger } from '../telemetry/logger.js';
import type { TaskAuditRecord } from '../telemetry/task-telemetry.js';
import type { ReadNamer } from '../telemetry/front-telemetry.js';
import { type Observability, startObservability } from './observability.js';
import { ProxyApp } from './proxy-app.js';
import { afterReload, reloadNotes } from './reload-notes.js';
import { type StartAddresses, startLine } from './start-line.js';
import { UpstreamResources } from '../upstream/resources.js';

export interface StartOptions {
  /** Start the OpenTelemetry SDK from OTEL_* (the CLI); a library's host program starts its own. */
  traceSdk?: boolean;
  /** What the instance reaches its servers with, if the caller made it already (the CLI prestarts children in it); closed with the proxy. */
  resources?: UpstreamResources;
  /** The HTTP front's socket, if the caller bound it already (the CLI, before it prestarts children); else it is bound first thing. */
  listenSocket?: ListenSocket;
}

/** The proxy could not start; the message says why and what to do. */
export class StartError extends Error {
  override readonly name = 'StartError';
}

export interface RunningProxy {
  /** The 2026-07-28 endpoint, `http(s)://HOST:PORT/mcp`; undefined for the stdio front. */
  readonly url: string | undefined;
  /** Resolves when the stdio front's client closed stdin (never for HTTP). */
  readonly ended: Promise<void>;
  /** Applies a new configuration: upstreams added, removed or reconfigured; listen, key, audit and front-door changes wait for a restart. */
  reload(next: ProxyConfig): Promise<void>;
  /** Re-reads the TLS certificate and key files, if the front serves TLS; logs what happened. */
  reloadCertificate(): void;
  /** /readyz 503 and new requests 503 at once; resolves when running requests finished or each upstream's drain timeout passed. */
  drain(): Promise<void>;
  /** Closes the front and every upstream (suspended interactions are ended), then flushes the audit and stops the metrics. */
  close(): Promise<void>;
}

export async function startProxy(config: ProxyConfig, log: Logger, options: StartOptions = {}): Promise<RunningProxy> {
  // The port before anything else: one that is taken fails the start before any legacy child runs.
  const socket = config.stdio ? undefined : (options.listenSocket ?? (await bindFront(config.host, config.port)));
  try {
    return await startOn(socket, config, log, options);
  } catch (err) {
    socket?.close();
    throw err;
  }
}

/** The HTTP front's socket, or a StartError saying why not and what to do. */
function bindFront(host: string, port: number): Promise<ListenSocket> {
  return bindListenSocket(host, port).catch((err: NodeJS.ErrnoException) => {
    throw new StartError(listenFailure(host, port, err));
  });
}

async function startOn(socket: ListenSocket | undefined, config: ProxyConfig, log: Logger, options: StartOptions): Promise<RunningProxy> {
  const instance = randomUUID();
  if (config.stateKey.generated) {
    log.warn('no --state-key or MRTR_STATE_KEY: generated a key for this process; retries must come back to this process');
  }
  for (const { message, upstreams } of childExposures(config, systemExposureFacts())) log.warn(message, { upstreams });
  if (config.defaultUpstream === undefined && config.upstreams.length > 1) {
    log.warn('no `default:` upstream in the configuration file: /mcp answers 404; clients use /servers/NAME/mcp', {
      upstreams: config.upstreams.map((u) => u.name),
    });
  }
  const { ledger, taskStore } = await openStateStore(config, log);
  // The CLI's, holding the children it started before the rest of the proxy loaded; else a new one.
  const resources = options.resources ?? new UpstreamResources();
  const audit = config.audit ? createAudit(config.audit, log, systemClock) : undefined;
  const live = config.dashboard ? new LiveInteractions(systemClock) : undefined;
  let observability: Observability;
  try {
    observability = await startObservability(config, log, options.traceSdk ?? false, systemClock);
  } catch (err) {
    await ledger.close();
    await audit?.close();
    resources.close();
    throw new StartError(`cannot serve metrics on 127.0.0.1:${config.metricsPort}: ${(err as Error).message}`);
  }
  // What a read is named by, once the upstreams exist (below).
  let nameRead: ReadNamer = () => undefined;
  // Shadow comparisons (per process): after the primary answered, aside (see shadow/shadow.ts).
  const shadows = new ShadowComparisons({
    log,
    metrics: observability.metrics,
    clock: systemClock,
    sink: audit ? (r) => audit.write(r) : undefined,
    content: audit?.content ?? false,
    onNote: live ? (n) => live.shadowDifference(n) : undefined,
    tokens: resources.tokens,
    nameRead: (upstream, uri) => nameRead(upstream, uri),
  });
  shadows.apply(config);
  const app = new ProxyApp({
    sealer: createSealer(config.stateKey.generated ? [config.stateKey.bytes] : config.stateKey.keys, systemClock.now),
    ledger,
    ...(taskStore === undefined ? {} : { taskStore }),
    ...(config.advertiseUrl === undefined ? {} : { advertiseUrl: config.advertiseUrl.origin }),
    // Forwards between instances are authenticated with keys derived from the shared state keys.
    ...(config.stateKey.generated ? {} : { forwardKeys: config.stateKey.keys.map(forwardKey) }),
    instance,
    legacyClients: config.legacyClients,
    fastLane: config.fastLane,
    log,
    clock: systemClock,
    observerFor: (name, resourceName) =>
      fanOut([...(audit ? [audit.recorderFor(name, resourceName)] : []), ...(live ? [live.observerFor(name)] : []), shadows.observerFor(name)]),
    forwardsFor: (name) => shadows.forwardsOf(name),
    ...(audit ? { audit: (r: TaskAuditRecord) => audit.writeTask(r) } : {}),
    metrics: observability.metrics,
    resources,
  });
  // The access log, spans and shadow records name a read by its declared template, as the audit does.
  nameRead = (upstream, uri) => {
    const name = app.legacyParts(upstream)?.upstream.resourceCatalog.known(uri);
    return name === undefined || name.undeclared ? undefined : name.name;
  };
  observability.front.nameReadsWith(nameRead);
  // Interactions the routes end while closing are still audited; then the file is flushed.
  const closeUpstreams = async () => {
    shadows.close();
    await app.close();
    resources.close();
    await ledger.close();
    await audit?.close();
    await observability.close();
  };
  const { started, failures } = await app.start(config);
  if (started === 0) {
    await closeUpstreams();
    throw new StartError(`no upstream could be started: ${failures.join('; ')}`);
  }
  let current = config;
  let http: HttpFront | undefined;
  let verifier: TokenVerifier | undefined;
  let door: FrontDoor | undefined;
  let front: { close(): Promise<void> };
  let ended: Promise<void> = new Promise<void>(() => {});
  if (config.stdio) {
    const parts = app.legacyParts(config.defaultUpstream);
    if (!parts) {
      await closeUpstreams();
      throw new StartError('--stdio serves a legacy upstream; the default upstream is not one');
    }
    // On stdio the caller is the local user: no token, one principal.
    const principal = localUserPrincipal();
    const stdio = await startStdioFront({ ...parts, log, principal }, config.legacyClients, observability.front.stdio(config.defaultUpstream!, principal));
    front = stdio;
    ended = stdio.closed;
    log.info(startLine(config, { metrics: observability.metricsUrl }), { instance, ...urls({ metrics: observability.metricsUrl }) });
  } else {
    verifier = new TokenVerifier(systemClock.now, config.http.introspectionClient);
    warmIssuers(config, verifier, log);
    try {
      door = createFrontDoor(config.host, config.http, app.table, verifier, log);
      // Bound by startProxy whenever the front is HTTP.
      http = await startHttpListener(socket!, app.table, log, door, observability.front, live ? { live, table: app.table, log } : undefined);
    } catch (err) {
      await closeUpstreams();
      throw new StartError(listenFailure(config.host, config.port, err as NodeJS.ErrnoException));
    }
    front = http;
    const at = { url: http.url, dashboard: live ? http.url.replace(/\/mcp$/, '/dashboard') : undefined, metrics: observability.metricsUrl };
    log.info(startLine(config, at), { ...urls(at), instance, upstreams: app.table.all().map((r) => r.name) });
  }

  return {
    url: http?.url,
    ended,
    async reload(next) {
      for (const note of reloadNotes(current, next)) log.warn(note);
      warmIssuers(next, verifier, log);
      shadows.apply(next);
      await app.apply(next);
      // What waits for a restart stays as it runs, so the next reload compares against it.
      current = afterReload(current, next);
      log.info('configuration reloaded', { upstreams: app.table.all().map((r) => r.name) });
    },
    reloadCertificate() {
      if (!door || !config.http.tls) return;
      try {
        door.reload();
        log.info('TLS certificate reloaded');
      } catch (err) {
        log.error('TLS certificate not reloaded; the running one stays', { error: (err as Error).message });
      }
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

/**
 * The state shared between instances: the replay ledger, and with --state-store the task records
 * too. The Redis client (~0.25 s to load, and an optional dependency) only when --state-store names a store.
 */
async function openStateStore(config: ProxyConfig, log: Logger): Promise<{ ledger: ConsumedLedger; taskStore?: TaskStore }> {
  if (!config.stateStore) return { ledger: new MemoryLedger(systemClock) };
  const { RedisStore, StoreClientMissing } = await import('../state/redis-store.js');
  try {
    const store = await RedisStore.open(config.stateStore, log);
    return { ledger: store, taskStore: store };
  } catch (err) {
    throw err instanceof StoreClientMissing ? new StartError(err.message) : err;
  }
}

/** The start line's addresses as fields of their own, for a log collector. */
function urls(at: StartAddresses): Partial<Record<keyof StartAddresses, string>> {
  return Object.fromEntries(Object.entries(at).filter(([, v]) => v !== undefined));
}

/**
 * Discovers every configured authorization server at start and on reload, so a wrong issuer
 * shows in the log at once, not at the first request (which would get 503 until it is reachable).
 * Only a failure is worth a person's attention; a discovery that worked is at debug.
 */
function warmIssuers(config: ProxyConfig, verifier: TokenVerifier | undefined, log: Logger): void {
  if (!verifier) return;
  const issuers = new Set(config.upstreams.flatMap((u) => (u.clientAuth ? [u.clientAuth.issuer] : [])));
  for (const issuer of issuers) {
    verifier.warm(issuer).then(
      () => log.debug('authorization server discovered', { issuer }),
      (err: Error) => log.warn('authorization server not reachable yet; requests are refused with 503 until it is', { issuer, error: err.message }),
    );
  }
}
