// The composition root: the configured upstreams as assemblies, the route table the fronts read,
// and reloads. Nothing here listens or exits; the CLI decides that.
import type { ProxyConfig, UpstreamConfig } from '../config/types.js';
import { CutoverCheckFailed } from '../relay/migrated-server.js';
import { RouteTable } from '../routing/route.js';
import { assemble, type Assembly, type AssemblyDeps, type LegacyParts } from './assembly.js';

export class ProxyApp {
  readonly table = new RouteTable();
  private readonly assemblies = new Map<string, Assembly>();

  constructor(private readonly deps: AssemblyDeps) {}

  /**
   * Builds and starts every upstream; one that cannot be reached is still served (readyz says so).
   * Gives back how many started and why each other one did not (`NAME: cause`).
   */
  async start(config: ProxyConfig): Promise<{ started: number; failures: string[] }> {
    this.table.defaultName = config.defaultUpstream;
    let started = 0;
    const failures: string[] = [];
    for (const u of config.upstreams) {
      const assembly = await assemble(u, this.deps);
      this.put(u.name, assembly);
      try {
        await assembly.route.start();
        started++;
      } catch (err) {
        const what = err instanceof CutoverCheckFailed ? 'the migrated server does not serve what is cut over to it' : 'cannot reach the legacy server';
        this.deps.log.error(what, { upstream: u.name, error: (err as Error).message });
        failures.push(`${u.name}: ${(err as Error).message}`);
      }
    }
    return { started, failures };
  }

  /**
   * A reload: a removed upstream is closed, a new one started, a changed legacy one reconfigured in
   * place (suspended interactions keep their sessions), any other change replaces the assembly. A
   * change that cannot be applied leaves the running one as it was.
   */
  async apply(next: ProxyConfig): Promise<void> {
    const wanted = new Set(next.upstreams.map((u) => u.name));
    for (const [name, assembly] of this.assemblies) {
      if (wanted.has(name)) continue;
      this.assemblies.delete(name);
      this.table.delete(name);
      this.deps.log.info('upstream removed', { upstream: name });
      void assembly.close();
    }
    for (const u of next.upstreams) await this.applyOne(u);
    this.table.defaultName = next.defaultUpstream;
  }

  /** The upstream and bridge behind a legacy route, for fronts that serve it themselves (stdio). */
  legacyParts(name: string | undefined): LegacyParts | undefined {
    return name === undefined ? undefined : this.assemblies.get(name)?.legacy;
  }

  async close(): Promise<void> {
    await Promise.all([...this.assemblies.values()].map((a) => a.close()));
  }

  private async applyOne(u: UpstreamConfig): Promise<void> {
    const current = this.assemblies.get(u.name);
    if (current && same(current.route.config, u)) return;
    try {
      if (current && (await current.reconfigure(u))) {
        this.deps.log.info('upstream reconfigured', { upstream: u.name });
        return;
      }
      const assembly = await assemble(u, this.deps);
      await assembly.route.start();
      this.put(u.name, assembly);
      this.deps.log.info(current ? 'upstream replaced' : 'upstream added', { upstream: u.name, era: assembly.route.era });
      if (current) void current.close();
    } catch (err) {
      this.deps.log.error('upstream change not applied; the running one stays', { upstream: u.name, error: (err as Error).message });
    }
  }

  private put(name: string, assembly: Assembly): void {
    this.assemblies.set(name, assembly);
    this.table.set(assembly.route);
  }
}

function same(a: UpstreamConfig, b: UpstreamConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
