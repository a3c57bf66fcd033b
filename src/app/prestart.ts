// Starts the first child of every stdio legacy upstream of a configuration at once (see
// upstream/child/prestart.ts), so the CLI can load the rest of the proxy while the legacy servers start.
// The children belong to the resources the CLI then hands to the proxy it starts.
import type { ProxyConfig } from '../config/types.js';
import { UpstreamResources } from '../upstream/resources.js';

export type { UpstreamResources };

export function prestartLegacyChildren(config: ProxyConfig): UpstreamResources {
  const resources = new UpstreamResources();
  for (const u of config.upstreams) if (u.era === 'legacy' && u.target.kind === 'stdio') resources.prestarted.start(u.target);
  return resources;
}
