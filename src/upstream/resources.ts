// What one proxy instance owns for reaching its servers, made by the composition root and closed
// with it: the watchdog its children are registered with, the children started before the rest of
// it loaded, the tokens of its upstreams' client credentials, and its HTTP connection pools. Two
// proxies in one process share none of it.
import { Children } from './child/child-process.js';
import { TokenCache } from './client-credentials.js';
import { HttpAgents } from './transport/http-exchange.js';
import { Prestarts } from './child/prestart.js';

export class UpstreamResources {
  readonly children = new Children();
  readonly prestarted = new Prestarts(this.children);
  readonly tokens = new TokenCache();
  readonly agents = new HttpAgents();

  /** Ends the children nobody took and drops pooled connections; the watchdog goes once the children are closed. */
  close(): void {
    this.prestarted.end();
    this.agents.close();
    this.children.close();
  }
}
