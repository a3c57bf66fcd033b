// The library API: `createProxy(config)` with the configuration object the YAML file describes.
// It validates with the file's schema, starts the proxy and never exits the process or installs
// signal handlers; every failure is a thrown error (ConfigFileError for a bad object).
import { ConfigFileError, type ConfigObject } from '../config/file.js';
import { resolveObject } from '../config/resolve.js';
import { proxyLogger } from './proxy-logger.js';
import { StartError, startProxy } from './running-proxy.js';

export { ConfigFileError, StartError, type ConfigObject };

export interface CreateProxyOptions {
  /** Where header `env:` references, `stateKeyEnv` and MRTR_STATE_KEY are read; default process.env. */
  env?: Record<string, string | undefined>;
  /** Relative stdio `cwd` resolves against this, which is also the default `cwd`; default process.cwd(). */
  baseDir?: string;
}

export interface MrtrProxy {
  /** The 2026-07-28 endpoint, `http(s)://HOST:PORT/mcp` (`listen.port: 0` picks a free port). */
  readonly url: string;
  /** Applies a new configuration object (and re-reads the TLS files); a rejected one throws and changes nothing. Listen address, key, audit and front-door changes need a new proxy. */
  reload(config: ConfigObject): Promise<void>;
  /** Drains (new requests 503, running ones finish within `drainTimeout`), then closes every upstream. */
  close(): Promise<void>;
}

export async function createProxy(config: ConfigObject, options: CreateProxyOptions = {}): Promise<MrtrProxy> {
  const env = options.env ?? process.env;
  const from = { source: 'createProxy config', baseDir: options.baseDir ?? process.cwd() };
  const resolved = resolveObject(config, env, from);
  const running = await startProxy(resolved, proxyLogger(resolved, env));
  let closing: Promise<void> | undefined;
  return {
    url: running.url!,
    async reload(next) {
      const resolvedNext = resolveObject(next, env, from);
      running.reloadCertificate();
      await running.reload(resolvedNext);
    },
    close() {
      closing ??= running.drain().then(() => running.close());
      return closing;
    },
  };
}
