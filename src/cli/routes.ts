// Configuration -> routes, at start and on SIGHUP. A changed legacy upstream is reconfigured in
// place (suspended interactions keep their sessions); a new one is started, a removed one closed.
// A reload that fails validation changes nothing.
import type { ProxyConfig, UpstreamConfig } from '../config/types.js';
import { LegacyRoute, type RouteDeps } from '../front/legacy-route.js';
import { ModernRoute } from '../front/modern-route.js';
import { ModernStdioRoute } from '../front/modern-stdio-route.js';
import type { Route, RouteTable } from '../front/route.js';
import { probeEra } from '../upstream/probe.js';

interface Built {
  route: Route & { start(): Promise<void> };
  config: UpstreamConfig;
}

const configs = new WeakMap<Route, UpstreamConfig>();

export async function buildRoute(config: UpstreamConfig, deps: RouteDeps): Promise<Built> {
  const era = config.era === 'auto' ? await probeEra(config.target, config.connectTimeoutMs) : config.era;
  if (config.era === 'auto') deps.log.info('upstream era probed', { upstream: config.name, era });
  const route =
    era === 'legacy' ? new LegacyRoute(config, deps) : config.target.kind === 'stdio' ? new ModernStdioRoute(config, deps.log) : new ModernRoute(config, deps.log);
  configs.set(route, config);
  return { route, config };
}

/** Builds and starts every upstream; one that cannot be reached is still served (readyz says so). */
export async function startRoutes(config: ProxyConfig, table: RouteTable, deps: RouteDeps): Promise<{ started: number }> {
  table.defaultName = config.defaultUpstream;
  let started = 0;
  for (const u of config.upstreams) {
    const { route } = await buildRoute(u, deps);
    table.set(route);
    try {
      await route.start();
      started++;
    } catch (err) {
      deps.log.error('cannot reach the legacy server', { upstream: u.name, error: (err as Error).message });
    }
  }
  return { started };
}

export async function applyConfig(next: ProxyConfig, table: RouteTable, deps: RouteDeps): Promise<void> {
  const wanted = new Set(next.upstreams.map((u) => u.name));
  for (const route of table.all()) {
    if (wanted.has(route.name)) continue;
    table.delete(route.name);
    deps.log.info('upstream removed', { upstream: route.name });
    void route.close();
  }
  for (const u of next.upstreams) {
    const current = table.get(u.name);
    const before = current ? configs.get(current) : undefined;
    if (current && before && same(before, u)) continue;
    try {
      if (current instanceof LegacyRoute && u.era === 'legacy') {
        await current.reconfigure(u);
        configs.set(current, u);
        deps.log.info('upstream reconfigured', { upstream: u.name });
        continue;
      }
      const { route } = await buildRoute(u, deps);
      await route.start();
      table.set(route);
      deps.log.info(current ? 'upstream replaced' : 'upstream added', { upstream: u.name, era: route.era });
      if (current) void current.close();
    } catch (err) {
      deps.log.error('upstream change not applied; the running one stays', { upstream: u.name, error: (err as Error).message });
    }
  }
  table.defaultName = next.defaultUpstream;
}

function same(a: UpstreamConfig, b: UpstreamConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
