// Starts the first child of every stdio legacy upstream of a configuration at once (see
// upstream/prestart.ts), so the CLI can load the rest of the proxy while the legacy servers start.
import type { ProxyConfig } from '../config/types.js';
import { endPrestarted, prestartChild } from '../upstream/prestart.js';

export function prestartLegacyChildren(config: ProxyConfig): void {
  for (const u of config.upstreams) if (u.era === 'legacy' && u.target.kind === 'stdio') prestartChild(u.target);
}

export { endPrestarted };
