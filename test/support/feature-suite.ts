// One describe block per server stack: each feature the same through the proxy (2026-07-28 client)
// as directly (the legacy client), see compat-features.ts. The proxy starts its own copies of a
// stdio server, and shares an HTTP server with the legacy client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertSameHeard, type FeatureSuite, legacyClient, type LegacyTarget, textOfResult, throughProxy } from './compat-features.js';
import { startProxy, type ProxyProcess } from './processes.js';

export function featureSuite(s: FeatureSuite): void {
  describe(s.name, { skip: s.skip }, () => {
    let proxy: ProxyProcess;
    let direct: Awaited<ReturnType<typeof legacyClient>>;
    let stop: (() => Promise<unknown>) | undefined;
    let target: LegacyTarget;
    before(async () => {
      const started = await s.start();
      target = started.target;
      stop = started.stop;
      proxy = await startProxy(started.proxyArgs);
      direct = await legacyClient(target);
    });
    after(async () => {
      await direct?.close();
      await proxy?.stop();
      await stop?.();
    });

    for (const c of s.cases) {
      it(`${c.feature}: the same through the proxy as with its own legacy client`, async () => {
        const legacy = await direct.call(c.call);
        const proxied = await throughProxy(proxy.url, c.call);
        assert.match(textOfResult(legacy.result), c.shows, 'the legacy client got the feature');
        assertSameHeard(c.feature, legacy, proxied);
      });
    }
  });
}
