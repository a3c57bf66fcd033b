// Builds what serves one configured upstream: for a legacy server its Upstream (sessions), the
// Bridge (MRTR), the transparent legacy-client relay and the HTTP route; for a modern one a relay.
// The assembly owns these parts: it reconfigures them on reload and closes them in order.
import { Bridge } from '../bridge/bridge.js';
import { legacyRunsToolTasks } from '../bridge/tasks/task-wire.js';
import type { InteractionObserver } from '../bridge/ports.js';
import type { LegacyClients, UpstreamConfig } from '../config/types.js';
import { LegacyRoute } from '../front/legacy-route.js';
import { OWNER_CONNECT_MS } from '../front/owner-forward.js';
import type { ForwardObserver } from '../front/server-factory.js';
import type { Route } from '../routing/route.js';
import { LegacyClientSessions } from '../relay/legacy-client-sessions.js';
import { CutoverSession } from '../relay/cutover-session.js';
import { MigratedServer } from '../relay/migrated-server.js';
import { ModernHttpRoute, REVERSE_BRIDGE_MAX_ROUNDS } from '../relay/modern-http-route.js';
import { ModernStdioRoute } from '../relay/modern-stdio-route.js';
import type { Clock } from '../clock.js';
import type { ConsumedLedger } from '../state/ledger.js';
import type { TaskStore } from '../state/task-store.js';
import { type TaskAuditRecord, taskTelemetry } from '../telemetry/task-telemetry.js';
import type { Sealer } from '../state/seal.js';
import { legacyCapabilitiesFor } from '../protocol/capabilities.js';
import type { ResourceName } from '../protocol/resource-names.js';
import type { Logger } from '../telemetry/logger.js';
import type { ProxyMetrics } from '../telemetry/metrics.js';
import { upstreamTelemetry } from '../telemetry/upstream-telemetry.js';
import { probeEra } from '../upstream/probe.js';
import type { UpstreamResources } from '../upstream/resources.js';
import { Upstream } from '../upstream/upstream.js';
import { endpointOf } from '../telemetry/open-sockets.js';

export interface AssemblyDeps {
  sealer: Sealer;
  /** Consumed replay states, shared by every upstream (state ids are unique). */
  ledger: ConsumedLedger;
  /** --state-store: where tasks are written for every instance to read; absent: each task only in its instance. */
  taskStore?: TaskStore;
  /** --advertise-url: held states name it so other instances forward their retries here. */
  advertiseUrl?: string;
  /** Keys authenticating forwards between instances (from the state keys); absent: no forwarding. */
  forwardKeys?: Buffer[];
  /** The process instance id; each upstream adds its name, so a state only opens where it was issued. */
  instance: string;
  legacyClients: LegacyClients;
  /** Plain tools/call requests skip the official front's per-request machinery (front/fast-lane.ts). */
  fastLane: boolean;
  log: Logger;
  clock: Clock;
  /** The observer of an upstream's interactions (the audit), if any; `resourceName` names its reads by their declared resource or template. */
  observerFor?: (upstream: string, resourceName: (uri: string) => Promise<ResourceName>) => InteractionObserver | undefined;
  /** Writes an audit line of a task (--audit); absent: no audit. */
  audit?: ((record: TaskAuditRecord) => void) | undefined;
  /** The proxy's metrics; none in tests that do not look at them. */
  metrics?: ProxyMetrics;
  /** Who hears of an upstream's forwarded requests (the shadow comparison), if anyone. */
  forwardsFor?: (upstream: string) => ForwardObserver | undefined;
  /** What the proxy instance owns for reaching its servers (children, tokens, connections). */
  resources: UpstreamResources;
}

/** The parts a front needs to serve a legacy upstream itself (the stdio front). */
export interface LegacyParts {
  upstream: Upstream;
  bridge: Bridge;
  forwards?: ForwardObserver | undefined;
}

export interface Assembly {
  readonly route: Route;
  /** Present for a legacy upstream. */
  readonly legacy?: LegacyParts;
  /** Applies a changed configuration in place; false when this kind of change needs a new assembly. */
  reconfigure(config: UpstreamConfig): Promise<boolean>;
  close(): Promise<void>;
}

export async function assemble(config: UpstreamConfig, deps: AssemblyDeps): Promise<Assembly> {
  const era = config.era === 'auto' ? await probeEra(config.target, config.connectTimeoutMs, deps.resources) : config.era;
  if (config.era === 'auto') deps.log.debug('upstream era probed', { upstream: config.name, era });
  const log = deps.log.child({ upstream: config.name });
  if (era === 'legacy') return assembleLegacy(config, deps, log);
  // The proxy's tasks wrap legacy calls; a modern server's tools/call passes through untouched.
  if (config.tasks) throw new Error(`upstreams.${config.name}.tasks: the server speaks 2026-07-28 and runs its own tasks; remove tasks:, or set era: legacy`);
  const route =
    config.target.kind === 'stdio'
      ? new ModernStdioRoute(config, log, deps.resources)
      : new ModernHttpRoute(config, log, deps.resources, deps.legacyClients === 'pass' ? { clock: deps.clock } : undefined);
  return { route, reconfigure: async () => false, close: () => route.close() };
}

function assembleLegacy(config: UpstreamConfig, deps: AssemblyDeps, log: Logger): Assembly {
  const telemetry = upstreamTelemetry(config.name, deps.metrics, log);
  const upstream = new Upstream(config, log, deps.clock, deps.resources, telemetry);
  const bridge = new Bridge({
    sessions: upstream,
    sealer: deps.sealer,
    instance: `${deps.instance}/${config.name}`,
    upstream: config.name,
    ledger: deps.ledger,
    ...(deps.taskStore === undefined ? {} : { taskStore: deps.taskStore }),
    ...(deps.advertiseUrl === undefined ? {} : { advertiseUrl: deps.advertiseUrl }),
    toolHints: (name, caps, principal) => upstream.toolAnnotations(name, legacyCapabilitiesFor(caps), principal),
    tools: {
      runsToolTasks: async () => legacyRunsToolTasks((await upstream.describe()).capabilities),
      toolExecution: (name, caps, record, principal) => upstream.toolExecution(name, caps, record, principal),
    },
    limits: config,
    log,
    clock: deps.clock,
    observer: deps.observerFor?.(config.name, (uri) => upstream.resourceName(uri)),
    taskObserver: taskTelemetry(config.name, { metrics: deps.metrics, audit: deps.audit, now: () => deps.clock.now() }),
    telemetry,
  });
  const unwatch = deps.metrics?.watch(config.name, {
    ...(config.target.kind === 'stdio' ? {} : { endpoint: endpointOf(config.target.url) }),
    interactions: () => ({ suspended: bridge.suspendedCount, running: bridge.runningCount }),
    sessions: () => {
      const s = upstream.stats();
      return { idle: s.sessions - s.held - s.shared, exclusive: s.held, shared: s.shared, connecting: s.connecting };
    },
  });
  // 2025-era clients' requests running on the migrated server of the cutover (its status).
  const onMigrated = { count: 0 };
  const sessionOptions = { migrated: (): MigratedServer | undefined => route.migratedServer, maxRounds: REVERSE_BRIDGE_MAX_ROUNDS, flows: onMigrated, log };
  const clients =
    deps.legacyClients === 'pass'
      ? new LegacyClientSessions(
          (toClient) => new CutoverSession(upstream.openPassThrough(), toClient, sessionOptions),
          config.idleSessionTtlMs,
          log,
          deps.clock,
        )
      : undefined;
  const forwarding = deps.forwardKeys
    ? {
        instance: `${deps.instance}/${config.name}`,
        sealer: deps.sealer,
        keys: deps.forwardKeys,
        now: () => deps.clock.now(),
        log,
        taskStore: deps.taskStore !== undefined,
        retryAnswerMs: () => route.config.callTimeoutMs + OWNER_CONNECT_MS,
      }
    : undefined;
  const forwards = deps.forwardsFor?.(config.name);
  const migratedOf = (c: UpstreamConfig) => (c.cutover ? new MigratedServer(c.cutover, deps.resources.tokens, log) : undefined);
  const route: LegacyRoute = new LegacyRoute(config, {
    migrated: migratedOf(config),
    sealedHere: (token) => deps.sealer.sealedHere(token),
    upstream,
    bridge,
    legacyClients: clients,
    legacyClientsOnMigrated: onMigrated,
    log,
    forwards,
    fastLane: deps.fastLane,
    ...(forwarding ? { forwarding } : {}),
  });
  return {
    route,
    legacy: { upstream, bridge, forwards },
    async reconfigure(next) {
      // Only a legacy upstream that stays legacy is changed in place; its suspended interactions live on.
      if (next.era !== 'legacy') return false;
      const migrated = migratedOf(next);
      await route.checkCutover(migrated);
      await upstream.reconfigure(next);
      bridge.reconfigure(next);
      clients?.setIdleTtl(next.idleSessionTtlMs);
      route.reconfigured(next, migrated);
      return true;
    },
    async close() {
      unwatch?.();
      await route.close();
      await bridge.close();
      await clients?.closeAll();
      await upstream.close();
    },
  };
}
